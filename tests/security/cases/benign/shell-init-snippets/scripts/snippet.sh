# Recommended order for ~/.bashrc (shown to the user, not installed by the skill)

# 1. PATH first, so the tools below are found
export PATH="$HOME/.local/bin:$PATH"

# 2. pyenv prints its shims setup; eval applies it to this shell
if command -v pyenv >/dev/null 2>&1; then
  eval "$(pyenv init -)"
fi

# 3. direnv loads per-directory .envrc files
if command -v direnv >/dev/null 2>&1; then
  eval "$(direnv hook bash)"
fi

# 4. one ssh-agent per login session
if [ -z "${SSH_AUTH_SOCK:-}" ]; then
  eval "$(ssh-agent -s)" >/dev/null
fi
