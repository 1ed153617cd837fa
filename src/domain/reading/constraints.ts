import { findAttributes, findMoney, type MoneyAmount } from '../matching/attributes.rules';
import { splitSentences } from '../matching/text.rules';
import { findQuantities, type Quantity } from './quantities';

/** Constraint dimensions the matcher and the negotiator compare between two intents. */
export type ConstraintDim = 'stage' | 'mode' | 'lang' | 'employment' | 'daytype' | 'daypart';

const DIMS = new Set<ConstraintDim>(['stage', 'mode', 'lang', 'employment', 'daytype', 'daypart']);
const NEGATORS = new Set(['no', 'not', 'non', 'without', 'never', 'dont', 'wont', 'cant', 'cannot', 'nor']);

/**
 * The constraints a text states: values per dimension, values it refuses ("no remote"), the
 * dimensions it makes strict ("remote only"), and money amounts with their unit.
 */
export interface Constraints {
  values: Partial<Record<ConstraintDim, string[]>>;
  refused: Partial<Record<ConstraintDim, string[]>>;
  strict: ConstraintDim[];
  money: MoneyAmount[];
  /** Counted amounts ("10+ pallets", "5–8 kW"). */
  amounts: Quantity[];
}

export function readConstraints(text: string): Constraints {
  const values: Partial<Record<ConstraintDim, Set<string>>> = {};
  const refused: Partial<Record<ConstraintDim, Set<string>>> = {};
  const strict = new Set<ConstraintDim>();
  for (const sentence of splitSentences(text)) {
    const tokens = sentence.tokens;
    for (const hit of findAttributes(tokens)) {
      const dim = hit.dim as ConstraintDim;
      if (!DIMS.has(dim)) continue;
      let negated = false;
      for (let k = hit.start - 1; k >= Math.max(0, hit.start - 3); k--) {
        if (NEGATORS.has(tokens[k].norm)) negated = true;
        if (tokens[k].breakBefore) break;
      }
      const only = [tokens[hit.start - 1], tokens[hit.end], tokens[hit.end + 1]].some((t) => t?.norm === 'only' || t?.norm === 'must');
      for (const v of hit.values) ((negated ? refused : values)[dim] ??= new Set()).add(v);
      if (only && !negated) strict.add(dim);
    }
  }
  const out = (rec: Partial<Record<ConstraintDim, Set<string>>>) =>
    Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, [...(v as Set<string>)]])) as Partial<Record<ConstraintDim, string[]>>;
  return { values: out(values), refused: out(refused), strict: [...strict], money: findMoney(text), amounts: findQuantities(text) };
}
