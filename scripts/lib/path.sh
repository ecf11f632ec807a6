# Shared by ci_packages.sh and ci_vscode.sh. Source it.

# The folders of PATH that hold no skill-lsp, without ~/.cargo/bin, joined with `:`: a PATH on
# which only a packaged server can be found.
path_without_skill_lsp() {
  local kept= dir
  local -a dirs
  IFS=: read -r -a dirs <<<"$PATH"
  for dir in "${dirs[@]}"; do
    [ -n "$dir" ] && [ ! -e "$dir/skill-lsp" ] && [ "$dir" != "$HOME/.cargo/bin" ] || continue
    kept=${kept:+$kept:}$dir
  done
  echo "$kept"
}
