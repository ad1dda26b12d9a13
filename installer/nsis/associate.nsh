; SPDX-License-Identifier: GPL-3.0-or-later
; Inserted into the CPack NSIS installer's install section (CPACK_NSIS_EXTRA_INSTALL_COMMANDS).
; The .lxdb extension is taken only when no program owns it (or this one did before, a reinstall): a user's
; choice or another program's claim stays as it was. The ProgID is registered either way, so that Explorer's
; "Open with" lists Latency Explorer. Written to SHCTX: the machine's classes for an install for all users,
; the user's otherwise, as the rest of the installer.
ReadRegStr $0 HKCR ".lxdb" ""
StrCmp $0 "" lx_take_lxdb
StrCmp $0 "LatencyExplorer.Investigation" lx_take_lxdb lx_lxdb_taken
lx_take_lxdb:
  WriteRegStr SHCTX "Software\Classes\.lxdb" "" "LatencyExplorer.Investigation"
  WriteRegStr SHCTX "Software\Classes\.lxdb" "Content Type" "application/x-latency-explorer"
lx_lxdb_taken:
WriteRegStr SHCTX "Software\Classes\.lxdb\OpenWithProgids" "LatencyExplorer.Investigation" ""
WriteRegStr SHCTX "Software\Classes\LatencyExplorer.Investigation" "" "Latency Explorer investigation"
WriteRegStr SHCTX "Software\Classes\LatencyExplorer.Investigation\DefaultIcon" "" "$INSTDIR\bin\latency-explorer.exe,0"
WriteRegStr SHCTX "Software\Classes\LatencyExplorer.Investigation\shell\open\command" "" '"$INSTDIR\bin\latency-explorer.exe" "%1"'
; SHCNE_ASSOCCHANGED, SHCNF_IDLIST: Explorer shows the new icon and verb without a restart.
System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
