import type { Dim } from './attributes.rules';

/**
 * How well two stated values of one dimension agree, in [0, 1]: 1 when they share a value, less
 * the further apart they are (a neighbouring stage, part-time against interim, remote against
 * on site). The negotiator's checks read it; a value stated as strict ("only") costs more.
 */
const EMPLOYMENT_OK: Record<string, string[]> = {
  ft: ['ft'],
  pt: ['pt', 'interim', 'contract'],
  interim: ['pt', 'interim', 'contract'],
  contract: ['pt', 'interim', 'contract'],
};

export function dimCompatibility(dim: Dim, a: string[], b: string[], strict: boolean): number {
  const shared = a.some((x) => b.includes(x) || x === '*' || x === 'any') || b.some((x) => x === '*' || x === 'any');
  if (shared) return 1;
  switch (dim) {
    case 'stage': {
      const gap = Math.min(...a.flatMap((x) => b.map((y) => Math.abs(Number(x) - Number(y)))));
      return gap <= 1 ? 0.75 : 0.35;
    }
    case 'employment':
      return a.some((x) => b.some((y) => EMPLOYMENT_OK[x]?.includes(y))) ? 1 : 0.35;
    case 'mode': {
      const remoteish = (v: string[]) => v.some((x) => x === 'remote' || x === 'virtual');
      const present = (v: string[]) => v.some((x) => x === 'onsite' || x === 'inperson');
      if ((remoteish(a) && present(b)) || (remoteish(b) && present(a))) return strict ? 0.25 : 0.45;
      return 0.75;
    }
    case 'pay':
      return strict ? 0.25 : 0.4;
    case 'daytype':
      return 0.35;
    case 'daypart': {
      const day = (v: string[]) => v.includes('day');
      if ((day(a) && b.some((x) => x !== 'evening')) || (day(b) && a.some((x) => x !== 'evening'))) return 1;
      return 0.6;
    }
    case 'month': {
      const near = a.some((x) => b.some((y) => {
        const d = Math.abs(Number(x) - Number(y)) % 12;
        return Math.min(d, 12 - d) <= 1;
      }));
      // Next to each other is not the same time ("March to May" against "June to August"): the owners decide.
      if (near) return 0.75;
      return strict ? 0.35 : 0.6;
    }
    case 'lang':
      return 0.3;
    case 'pet':
      return 0.45;
    default:
      return 1;
  }
}
