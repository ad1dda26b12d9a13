# The desktop integration of the programs: the icon, the Windows version resource, the macOS bundle and the
# freedesktop files (desktop entry, AppStream metainfo, MIME type, hicolor icons). app/CMakeLists.txt
# includes it; the programs' CMakeLists call the functions. One application id names the desktop file, the
# metainfo, the icon and the macOS bundle.
include(GNUInstallDirs)

set(LX_APP_ID "io.github.latencyexplorer.LatencyExplorer")
set(LX_RESOURCES_DIR "${CMAKE_CURRENT_LIST_DIR}")
set(LX_ICON_SIZES 16 24 32 48 64 128 256 512)

# The window's icon as a Qt resource of TARGET (a static library: applicationIcon() calls
# Q_INIT_RESOURCE(latency_explorer), which keeps the linker from dropping it).
function(lx_add_icon_resource target)
  set_property(TARGET ${target} PROPERTY AUTORCC ON)
  target_sources(${target} PRIVATE "${LX_RESOURCES_DIR}/latency_explorer.qrc")
endfunction()

# Windows: the icon and the version information of project(VERSION) in the executable TARGET.
function(lx_add_windows_version target description)
  if(NOT WIN32)
    return()
  endif()
  set(LX_RC_NAME "${target}")
  set(LX_RC_DESCRIPTION "${description}")
  set(LX_RC_ICON "${LX_RESOURCES_DIR}/icons/latency-explorer.ico")
  configure_file("${LX_RESOURCES_DIR}/windows/version.rc.in" "${CMAKE_CURRENT_BINARY_DIR}/${target}.rc" @ONLY)
  target_sources(${target} PRIVATE "${CMAKE_CURRENT_BINARY_DIR}/${target}.rc")
endfunction()

# macOS: the bundle's Info.plist (the .lxdb document type) and its .icns.
function(lx_set_macos_bundle target)
  if(NOT APPLE)
    return()
  endif()
  set(icns "${LX_RESOURCES_DIR}/icons/latency-explorer.icns")
  target_sources(${target} PRIVATE "${icns}")
  set_source_files_properties("${icns}" PROPERTIES MACOSX_PACKAGE_LOCATION Resources)
  set_target_properties(${target} PROPERTIES
    MACOSX_BUNDLE_INFO_PLIST "${LX_RESOURCES_DIR}/macos/Info.plist.in"
    MACOSX_BUNDLE_BUNDLE_NAME "Latency Explorer"
    MACOSX_BUNDLE_GUI_IDENTIFIER "${LX_APP_ID}"
    MACOSX_BUNDLE_ICON_FILE "latency-explorer.icns"
    MACOSX_BUNDLE_SHORT_VERSION_STRING "${PROJECT_VERSION}"
    MACOSX_BUNDLE_BUNDLE_VERSION "${PROJECT_VERSION}"
    MACOSX_BUNDLE_COPYRIGHT "GPL-3.0-or-later")
endfunction()

# Linux and the other freedesktop systems: what makes the application show in menus and software centres
# and open .lxdb files (share/applications, share/metainfo, share/mime/packages, share/icons/hicolor).
function(lx_install_freedesktop_files)
  if(NOT UNIX OR APPLE)
    return()
  endif()
  install(FILES "${LX_RESOURCES_DIR}/linux/${LX_APP_ID}.desktop" DESTINATION "${CMAKE_INSTALL_DATADIR}/applications")
  install(FILES "${LX_RESOURCES_DIR}/linux/${LX_APP_ID}.metainfo.xml" DESTINATION "${CMAKE_INSTALL_DATADIR}/metainfo")
  install(FILES "${LX_RESOURCES_DIR}/linux/${LX_APP_ID}.mime.xml" DESTINATION "${CMAKE_INSTALL_DATADIR}/mime/packages"
          RENAME "${LX_APP_ID}.xml")
  foreach(size ${LX_ICON_SIZES})
    install(FILES "${LX_RESOURCES_DIR}/icons/png/${size}.png"
            DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/${size}x${size}/apps" RENAME "${LX_APP_ID}.png")
  endforeach()
  install(FILES "${LX_RESOURCES_DIR}/icons/${LX_APP_ID}.svg" DESTINATION "${CMAKE_INSTALL_DATADIR}/icons/hicolor/scalable/apps")
  # The manual pages, compressed as Debian's policy asks (gzip -9n: no name or time stamp, reproducible).
  find_program(LX_GZIP gzip)
  if(LX_GZIP)
    file(MAKE_DIRECTORY "${PROJECT_BINARY_DIR}/man")
    foreach(page latency-explorer.1 latency-explorer-cli.1)
      # Compressed when CMake configures: an edited page configures again.
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${LX_RESOURCES_DIR}/linux/man/${page}")
      execute_process(COMMAND "${LX_GZIP}" -9 -n -c "${LX_RESOURCES_DIR}/linux/man/${page}"
                      OUTPUT_FILE "${PROJECT_BINARY_DIR}/man/${page}.gz" COMMAND_ERROR_IS_FATAL ANY)
      install(FILES "${PROJECT_BINARY_DIR}/man/${page}.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
    endforeach()
  endif()
endfunction()
