# Installation layout and CPack: a .deb that installs poslab, its desktop entry, AppStream
# metainfo and scalable icon. Included last by the top-level CMakeLists.txt.
#
#   cmake --preset release && cmake --build --preset release
#   (cd build/release && cpack)            -> build/release/poslab_0.1.0_amd64.deb
#
# The application id is org.poslab.PosLab: the desktop file, the metainfo's <launchable> and
# the icon are all installed under that name (the freedesktop and AppStream rules).
include(GNUInstallDirs)

set(POSLAB_APP_ID "org.poslab.PosLab")
set(POSLAB_PACKAGING_DIR "${CMAKE_CURRENT_LIST_DIR}")

# The version sessions and exported figures record (ui/io/session.cpp: poslabVersion()).
if(TARGET poslab_io)
  target_compile_definitions(poslab_io PRIVATE POSLAB_VERSION="${PROJECT_VERSION}")
endif()

if(POSLAB_BUILD_UI)
  install(FILES "${POSLAB_PACKAGING_DIR}/poslab.desktop"
          DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/applications"
          RENAME "${POSLAB_APP_ID}.desktop")
  install(FILES "${POSLAB_PACKAGING_DIR}/${POSLAB_APP_ID}.metainfo.xml"
          DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/metainfo")
  install(FILES "${POSLAB_PACKAGING_DIR}/icons/poslab.svg"
          DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/icons/hicolor/scalable/apps"
          RENAME "${POSLAB_APP_ID}.svg")
endif()

# ---- Man page and bash completion ---------------------------------------------------------------
# Generated at build time from the built program's own --help texts (printed from the option
# tables that parse the options) by packaging/poslab_docs.py: build/<preset>/doc/poslab.1(.gz),
# build/<preset>/doc/completions/poslab. Needs a Python 3 interpreter (no modules beyond its own).
if(TARGET poslab)
  if(NOT DEFINED POSLAB_PYTHON)
    set(POSLAB_PYTHON "/usr/bin/python3")
  endif()
  if(EXISTS "${POSLAB_PYTHON}")
    set(POSLAB_DOC_DIR "${PROJECT_BINARY_DIR}/doc")
    add_custom_command(
      OUTPUT "${POSLAB_DOC_DIR}/poslab.1" "${POSLAB_DOC_DIR}/poslab.1.gz" "${POSLAB_DOC_DIR}/completions/poslab"
      COMMAND ${CMAKE_COMMAND} -E env QT_QPA_PLATFORM=offscreen
              "${POSLAB_PYTHON}" "${POSLAB_PACKAGING_DIR}/poslab_docs.py" $<TARGET_FILE:poslab> "${POSLAB_DOC_DIR}"
      DEPENDS poslab "${POSLAB_PACKAGING_DIR}/poslab_docs.py"
      COMMENT "Generating the man page poslab.1 and the bash completion from poslab --help"
      VERBATIM)
    add_custom_target(poslab_docs ALL DEPENDS "${POSLAB_DOC_DIR}/poslab.1" "${POSLAB_DOC_DIR}/completions/poslab")
    if(TARGET test_manpage)
      add_dependencies(test_manpage poslab_docs)
    endif()
    install(FILES "${POSLAB_DOC_DIR}/poslab.1.gz" DESTINATION "${CMAKE_INSTALL_MANDIR}/man1")
    install(FILES "${POSLAB_DOC_DIR}/completions/poslab" DESTINATION "${CMAKE_INSTALL_DATAROOTDIR}/bash-completion/completions")
  else()
    message(STATUS "Man page and bash completion: skipped (no interpreter ${POSLAB_PYTHON})")
  endif()
endif()

# ---- CPack (Debian package) -------------------------------------------------------------------
set(CPACK_PACKAGE_NAME "poslab")
set(CPACK_PACKAGE_VENDOR "PosLab")
set(CPACK_PACKAGE_CONTACT "PosLab developers <dev@poslab.invalid>")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_DESCRIPTION
    "PosLab shows how transformer language models encode token positions: sinusoidal,\n\
learned, Shaw, T5, Transformer-XL, ALiBi, RoPE (every scaling type), xPos and NoPE,\n\
computed number for number like the reference implementations. It draws rotated\n\
query/key pairs, attention heatmaps, decay curves and frequency spectra, exports\n\
figures to PNG, SVG and PDF, and has a command line (poslab compute / poslab figure).")
set(CPACK_PACKAGING_INSTALL_PREFIX "/usr")
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR "DEB")
set(CPACK_SOURCE_GENERATOR "TGZ")
set(CPACK_SOURCE_IGNORE_FILES "/build/" "/\\\\.git/" "/\\\\.cache/")

set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)            # poslab_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION "science")
set(CPACK_DEBIAN_PACKAGE_PRIORITY "optional")
set(CPACK_DEBIAN_PACKAGE_HOMEPAGE "${PROJECT_HOMEPAGE_URL}")
# Runtime libraries (Qt 6 Core/Gui/Widgets/Svg, libstdc++ ...) are derived by
# dpkg-shlibdeps from the installed executable. On Debian 12 the xcb/offscreen platform plugins
# are a separate package (qt6-qpa-plugins, only recommended by libqt6gui6): without them the
# window cannot start, so it is a dependency; CPack appends the shlibdeps to it.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins")
# The hicolor directories the icon goes into; fonts so that figures have text on a bare system.
# python3-numpy: `import poslab` (installed for Debian's python3 when the build made it) returns
# NumPy arrays.
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "hicolor-icon-theme, fonts-dejavu-core, python3-numpy")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "qt6-wayland")
# prerm: removes the bytecode python3 writes beside the installed poslab package.
set(CPACK_DEBIAN_PACKAGE_CONTROL_EXTRA "${POSLAB_PACKAGING_DIR}/debian/prerm")
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)

include(CPack)
