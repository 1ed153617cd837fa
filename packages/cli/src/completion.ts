import type { Command } from 'commander';

/** Every command path's words (subcommands, aliases and options), "_" being the root. */
function wordsOf(program: Command): Map<string, string[]> {
  const table = new Map<string, string[]>();
  const walk = (cmd: Command, path: string, inherited: string[]) => {
    const own = cmd.options.map((o) => o.long).filter((l): l is string => Boolean(l));
    const options = [...own, ...inherited, '--help'];
    const subs = cmd.commands.flatMap((c) => [c.name(), ...c.aliases()]);
    table.set(path, [...subs, ...options]);
    for (const c of cmd.commands) for (const n of [c.name(), ...c.aliases()]) walk(c, `${path} ${n}`, path === '_' ? own : inherited);
  };
  walk(program, '_', []);
  return table;
}

/** A bash completion script for the command tree (zsh loads it through bashcompinit). */
export function completionScript(program: Command, shell: 'bash' | 'zsh'): string {
  const entries = [...wordsOf(program)].map(([k, v]) => `  [${JSON.stringify(k)}]=${JSON.stringify(v.join(' '))}`).join('\n');
  const bash = `# intro completion (bash). Load with: source <(intro completion bash)
declare -gA _intro_words=(
${entries}
)
_intro_complete() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" path="_" w i
  for ((i = 1; i < COMP_CWORD; i++)); do
    w="\${COMP_WORDS[i]}"
    [[ "$w" == -* ]] && continue
    [[ -n "\${_intro_words["$path $w"]+x}" ]] && path="$path $w"
  done
  COMPREPLY=( $(compgen -W "\${_intro_words["$path"]}" -- "$cur") )
}
complete -F _intro_complete intro
`;
  if (shell === 'bash') return bash;
  return `# intro completion (zsh). Load with: source <(intro completion zsh)
autoload -U +X bashcompinit && bashcompinit
${bash}`;
}
