/** One field's problem in a refused request (`details` of a 400). */
export interface ErrorDetail {
  path: string;
  message: string;
}

/**
 * Every refusal the API answers comes back as this error: the HTTP `status`, the documented
 * `error` text, the `code` some refusals carry (intent_rejected, network_membership_required...),
 * the validation `details`, and the whole JSON `body` (detail, retryable, networkId, topics...).
 */
export class ApiError extends Error {
  readonly status: number;
  readonly error: string;
  readonly code: string | null;
  readonly details: ErrorDetail[];
  readonly body: Record<string, unknown>;

  constructor(status: number, body: unknown) {
    const b = body && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
    const error = typeof b.error === 'string' ? b.error : `http_${status}`;
    const detail = typeof b.detail === 'string' ? `: ${b.detail}` : '';
    super(`${status} ${error}${detail}`);
    this.name = 'ApiError';
    this.status = status;
    this.error = error;
    this.code = typeof b.code === 'string' ? b.code : null;
    this.details = Array.isArray(b.details) ? (b.details as ErrorDetail[]) : [];
    this.body = b;
  }

  /** 429 and 5xx answers may succeed when sent again (503 says so with retryable: true). */
  get retryable(): boolean {
    return this.status === 429 || this.status >= 500 || this.body.retryable === true;
  }
}

/** Reads a refused response's body (JSON when it is, else its text as `error`). */
export async function apiErrorOf(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '');
  try {
    return new ApiError(res.status, JSON.parse(text));
  } catch {
    return new ApiError(res.status, { error: text || res.statusText });
  }
}
