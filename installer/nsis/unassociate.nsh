; SPDX-License-Identifier: GPL-3.0-or-later
; Inserted into the CPack NSIS uninstaller (CPACK_NSIS_EXTRA_UNINSTALL_COMMANDS): releases .lxdb only when it
; still names our ProgID (the user may have given it to another program since), and removes the ProgID.
ReadRegStr $0 SHCTX "Software\Classes\.lxdb" ""
StrCmp $0 "LatencyExplorer.Investigation" 0 lx_lxdb_not_ours
  DeleteRegValue SHCTX "Software\Classes\.lxdb" ""
  DeleteRegValue SHCTX "Software\Classes\.lxdb" "Content Type"
lx_lxdb_not_ours:
DeleteRegValue SHCTX "Software\Classes\.lxdb\OpenWithProgids" "LatencyExplorer.Investigation"
DeleteRegKey /ifempty SHCTX "Software\Classes\.lxdb\OpenWithProgids"
DeleteRegKey /ifempty SHCTX "Software\Classes\.lxdb"
DeleteRegKey SHCTX "Software\Classes\LatencyExplorer.Investigation"
System::Call 'shell32::SHChangeNotify(i 0x08000000, i 0, p 0, p 0)'
