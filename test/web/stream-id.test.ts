import { isCommitId, isStreamId, newCommitId, newStreamId, streamIdOfCommit } from '../../src/domain/shared/stream-id';

describe('stream-id-like ids', () => {
  it('look like Ceramic model instance stream ids', () => {
    const ids = Array.from({ length: 50 }, () => newStreamId());
    for (const id of ids) {
      expect(id).toMatch(/^kjzl6kcy[0-9a-z]{55}$/);
      expect(isStreamId(id)).toBe(true);
      expect(isCommitId(id)).toBe(false);
    }
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('derive the same id from the same seed', () => {
    expect(newStreamId('a seed')).toBe(newStreamId('a seed'));
    expect(newStreamId('a seed')).not.toBe(newStreamId('another seed'));
  });

  it('make commit ids that name their stream', () => {
    const stream = newStreamId();
    const commit = newCommitId(stream);
    expect(commit).toMatch(/^k1dpgb[0-9a-z]{110,120}$/);
    expect(isCommitId(commit)).toBe(true);
    expect(isCommitId(commit, stream)).toBe(true);
    expect(isCommitId(commit, newStreamId())).toBe(false);
    expect(isStreamId(commit)).toBe(false);
    expect(streamIdOfCommit(commit)).toBe(stream);
    expect(newCommitId(stream, 'v2')).toBe(newCommitId(stream, 'v2'));
    expect(newCommitId(stream, 'v2')).not.toBe(newCommitId(stream, 'v3'));
  });

  it('reject what is not one', () => {
    for (const v of ['', 'kjzl6', 'hello', 'kjzl6kcym7w8y5eclmbdut8y5l5ouf67x7kifob9g971etopu4gj604ka28dje!', 'k' + 'z'.repeat(62), 42, null, undefined]) {
      expect(isStreamId(v)).toBe(false);
      expect(isCommitId(v)).toBe(false);
    }
    expect(() => newCommitId('not-a-stream')).toThrow('not a stream id');
  });
});
