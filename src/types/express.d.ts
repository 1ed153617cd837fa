import type { AuthResult } from '../domain/auth/actor';

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by the authentication middleware for /api and /graphql. */
      auth?: AuthResult;
      /** When the request reached the server, set before anything that may wait (src/app.ts). */
      receivedAt?: Date;
    }
  }
}

export {};
