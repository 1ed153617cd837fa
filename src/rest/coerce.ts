/**
 * Query strings arrive as text. These convert the obvious forms and pass anything else through
 * unchanged, so the route's query schema (src/rest/schemas/schema-kit.ts) refuses it with a 400
 * that names the parameter.
 */
export function int(v: unknown): unknown {
  if (v === undefined || v === '') return undefined;
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v.trim());
  return v;
}

export function bool(v: unknown): unknown {
  if (v === undefined || v === '') return undefined;
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return v;
}

/** `a,b,c` or repeated `?x=a&x=b` → array of strings. */
export function list(v: unknown): unknown {
  if (v === undefined || v === '') return undefined;
  if (Array.isArray(v)) return v.flatMap((x) => String(x).split(',')).map((s) => s.trim()).filter(Boolean);
  if (typeof v === 'string') return v.split(',').map((s) => s.trim()).filter(Boolean);
  return v;
}

/** A single string query value (a repeated key keeps the first). */
export function str(v: unknown): unknown {
  if (Array.isArray(v)) return v[0];
  return v;
}

/** Copies the named fields of a JSON body that are present (an omitted field stays omitted). */
export function pick(body: Record<string, unknown>, fields: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of fields) if (body && Object.prototype.hasOwnProperty.call(body, f)) out[f] = body[f];
  return out;
}
