/** type-graphql hands input objects over as class instances; the domain takes plain data (omitted fields stay omitted). */
export const plainInput = <T extends object>(v: T): Record<string, unknown> => JSON.parse(JSON.stringify(v ?? {})) as Record<string, unknown>;
