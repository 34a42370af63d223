# bash completion of `tune` (installed by the flowtune package to
# share/bash-completion/completions/tune; from a checkout: source cli/completion/tune.bash).
# Sub-commands; each sub-command's options from its own `--help` (never out of date); values
# of --board (the profiles, auto), --workload (the registry), --variant (the workload's),
# --precision, --format and --strategy; file names elsewhere.
_tune() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local tune=${COMP_WORDS[0]}
  local subs="tune boards space search export import replay report run flow worker status params help version"
  local sub="" w
  for w in "${COMP_WORDS[@]:1:COMP_CWORD-1}"; do
    case " $subs " in *" $w "*) sub=$w; break ;; esac
  done
  local values=""
  case $prev in
    --board) values="auto $("$tune" boards 2>/dev/null | cut -f1)" ;;
    --workload) values=$("$tune" params --markdown 2>/dev/null | sed -n 's/^### Workload `\([^`]*\)`.*/\1/p') ;;
    --variant) values=$("$tune" space --variant '?' 2>&1 | sed -n 's/.*this build has: \([^)]*\)).*/\1/p' |
                        tr -d ',') ;;
    --precision) values="f32 f16 mixed i32" ;;
    --format) values="text csv json header t4 kt-cache" ;;
    --strategy) values=$("$tune" --help 2>/dev/null | tr '\n' ' ' |
                         sed -n 's/.*--strategy arg (=auto) *\([^;]*\);.*/\1/p' | tr -d '|') ;;
  esac
  if [ -n "$values" ]; then
    mapfile -t COMPREPLY < <(compgen -W "$values" -- "$cur")
    return
  fi
  if [[ $cur == -* ]]; then
    local opts
    opts=$("$tune" ${sub:+$sub} --help 2>/dev/null | grep -o -- '--[a-z][a-z0-9-]*' | sort -u)
    mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")
  elif [ -z "$sub" ] && [ "$COMP_CWORD" -eq 1 ]; then
    mapfile -t COMPREPLY < <(compgen -W "$subs" -- "$cur")
  else
    mapfile -t COMPREPLY < <(compgen -f -- "$cur")
  fi
}
complete -o filenames -F _tune tune
