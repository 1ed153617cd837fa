// The import rules of src (docs/architecture.md, "Layers"), run by `npm run lint:deps` in CI.
//
//   src/rest → src/graphql → src/domain → src/entities, src/vector, src/jobs, src/db
//                                        (and the infrastructure it calls: src/mail)
//
// Authentication, the event log and the safe fetcher live in their domain areas
// (src/domain/auth, src/domain/events, src/domain/web: docs/adr/0099-one-folder-per-area.md).
//
// Arrows may skip a layer (a REST row reads the error table of src/domain) but never point up.
// src/ai holds the provider adapters of the domain's ports (src/domain/<area>/ports.ts): they
// point inward, and only the wiring (src/adapters.ts, src/services.ts) picks them.

/** The wiring and the transports: everything that may depend on everything else. */
const TOP = '^src/(rest|graphql|http|pages|cli)/|^src/(app|main|runtime|services|adapters|request-log)\\.ts$';
const LOWER = '^src/(entities|vector|jobs|db|mail)/';

/**
 * Two entities type a JSON or string column with the domain's own shape (an intent's facets, a
 * turn's action). The imports are type-only, so they leave no edge at run time; moving those
 * shapes under src/entities would put matching's and negotiation's vocabulary in the storage
 * layer. They may import those two type declarations and nothing else of the domain.
 */
const STORED_SHAPE_ENTITIES = '^src/entities/(intent-vector|negotiation)\\.entity\\.ts$';
const STORED_SHAPES = '^src/domain/(matching/facets|negotiations/negotiation)\\.rules\\.ts$';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'No import cycles, type-only imports included (tsPreCompilationDeps).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-points-down',
      comment: 'The domain knows no transport, no wiring and no provider adapter: it states ports and receives their implementations.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { path: `^src/ai/|${TOP}` },
    },
    {
      name: 'graphql-not-rest',
      comment: 'REST runs GraphQL operations in process; GraphQL never reaches back into the REST layer.',
      severity: 'error',
      from: { path: '^src/graphql/' },
      to: { path: '^src/rest/' },
    },
    {
      name: 'lower-layers-point-down',
      comment: 'Storage, vectors, events, jobs and the infrastructure below the domain never import the domain, a transport, the wiring or an adapter.',
      severity: 'error',
      from: { path: LOWER, pathNot: STORED_SHAPE_ENTITIES },
      to: { path: `^src/(domain|ai)/|${TOP}` },
    },
    {
      name: 'stored-shape-entities',
      comment: 'Named exception (see STORED_SHAPE_ENTITIES): those two entities import only the two shape declarations of the domain.',
      severity: 'error',
      from: { path: STORED_SHAPE_ENTITIES },
      to: { path: `^src/(domain|ai)/|${TOP}`, pathNot: STORED_SHAPES },
    },
    {
      name: 'stored-shape-entities-type-only',
      comment: 'Named exception (see STORED_SHAPE_ENTITIES): the shapes are imported as types only.',
      severity: 'error',
      from: { path: STORED_SHAPE_ENTITIES },
      to: { path: STORED_SHAPES, dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'adapters-point-inward',
      comment: 'A provider adapter implements a domain port; it knows no transport and no wiring.',
      severity: 'error',
      from: { path: '^src/ai/' },
      to: { path: TOP },
    },
    {
      name: 'adapters-picked-by-wiring',
      comment: 'Only the wiring chooses between a provider adapter and the local implementation.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/ai/|^src/(adapters|services)\\.ts$' },
      to: { path: '^src/ai/' },
    },
  ],
  options: {
    includeOnly: '^src/',
    doNotFollow: { path: 'node_modules' },
    // Type-only imports count: a cycle of types is still a cycle a reader has to untangle.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    moduleSystems: ['cjs', 'es6'],
  },
};
