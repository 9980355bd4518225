# `cmake --install BUILD [--prefix P]` lays gpuperf out where it looks for its parts:
#   P/bin/gpuperf                      the CLI
#   P/bin/gpuperf_ceilings_probe       beside gpuperf, where `gpuperf ceilings` looks (with CUDA)
#   P/lib/libgpuperf_inject.so         gpuperf's ../lib, where `gpuperf baseline` looks (with CUPTI)
#   P/share/doc/gpuperf/               README, LICENCE, docs/ and examples/
# lib/ is literal, not CMAKE_INSTALL_LIBDIR: the recorder finds the library relative to its own
# executable, and a multiarch libdir (lib/x86_64-linux-gnu) would break that. OPTIONAL: a build
# of some targets only (scripts/demo.sh builds gpuperf alone) still installs what it has.
include(GNUInstallDirs)

install(TARGETS gpuperf RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET gpuperf_inject)
  install(TARGETS gpuperf_inject LIBRARY DESTINATION lib OPTIONAL)
endif()
if(TARGET gpuperf_ceilings_probe)
  install(TARGETS gpuperf_ceilings_probe RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} OPTIONAL)
endif()
install(FILES README.md LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs examples DESTINATION ${CMAKE_INSTALL_DOCDIR})
