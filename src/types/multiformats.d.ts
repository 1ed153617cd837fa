/**
 * multiformats 9 ships CommonJS (what jest here loads) with typings that TypeScript's node16
 * resolution does not find through the package's exports. These declare the parts used.
 */
declare module 'multiformats/cid' {
  export interface MultibaseDecoder {
    decode(text: string): Uint8Array;
  }
  export interface MultihashDigest {
    code: number;
    digest: Uint8Array;
    bytes: Uint8Array;
  }
  export class CID {
    readonly version: 0 | 1;
    readonly code: number;
    static parse(text: string, base?: MultibaseDecoder): CID;
    static create(version: 0 | 1, code: number, digest: MultihashDigest): CID;
    toString(): string;
  }
}

declare module 'multiformats/bases/base58' {
  export const base58btc: { encode(bytes: Uint8Array): string; decoder: import('multiformats/cid').MultibaseDecoder };
}

declare module 'multiformats/bases/base36' {
  export const base36: { encode(bytes: Uint8Array): string; decoder: import('multiformats/cid').MultibaseDecoder };
}

declare module 'multiformats/codecs/raw' {
  export const code: number;
}

declare module 'multiformats/hashes/sha2' {
  export const sha256: { digest(bytes: Uint8Array): Promise<import('multiformats/cid').MultihashDigest> | import('multiformats/cid').MultihashDigest };
}
