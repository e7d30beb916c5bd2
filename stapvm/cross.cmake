# stapvm/cross.cmake: staprun and stapio for the arm64 guest (stapvm --arch
# arm64), cross-compiled static with Debian's aarch64-linux-gnu-gcc and
# libssl-dev:arm64, as bin/staprun-arm64 and bin/stapio-arm64. Skipped
# (with a note) when the cross compiler or arm64 libcrypto is missing.
find_program(STAPC_AARCH64_CC aarch64-linux-gnu-gcc)
find_file(STAPC_AARCH64_CRYPTO libcrypto.a PATHS /usr/lib/aarch64-linux-gnu NO_DEFAULT_PATH)
# What the static libcrypto needs, from its arm64 libcrypto.pc: Debian 12's OpenSSL 3.0
# -ldl -pthread; Debian 13's 3.5 also -lz -lzstd (zlib1g-dev:arm64, libzstd-dev:arm64).
set(STAPC_ARM64_CRYPTO_LIBS -lpthread -ldl)
if(STAPC_AARCH64_CC AND STAPC_AARCH64_CRYPTO)
  execute_process(COMMAND env PKG_CONFIG_LIBDIR=/usr/lib/aarch64-linux-gnu/pkgconfig
    pkg-config --static --libs-only-l libcrypto OUTPUT_VARIABLE arm64_crypto_libs
    OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE arm64_crypto_pc)
  if(arm64_crypto_pc EQUAL 0)
    separate_arguments(arm64_crypto_libs UNIX_COMMAND "${arm64_crypto_libs}")
    list(REMOVE_ITEM arm64_crypto_libs -lcrypto)
    list(APPEND STAPC_ARM64_CRYPTO_LIBS ${arm64_crypto_libs})
  endif()
  foreach(lib z zstd)
    if("-l${lib}" IN_LIST STAPC_ARM64_CRYPTO_LIBS AND NOT EXISTS /usr/lib/aarch64-linux-gnu/lib${lib}.a)
      message(STATUS "arm64 libcrypto needs lib${lib}.a (.ci/kernels installs its -dev:arm64)")
      set(STAPC_AARCH64_CRYPTO NO)
    endif()
  endforeach()
endif()
if(STAPC_AARCH64_CC AND STAPC_AARCH64_CRYPTO)
  set(STAPC_ARM64_FLAGS -std=gnu11 -O2 -static -DSTAPC_VERSION="${PROJECT_VERSION}"
    -DSTAPC_SOURCE_DIR="${CMAKE_SOURCE_DIR}" -DSTAPC_DATADIR="${STAPC_DATADIR}"
    -DSTAPC_DOCDIR="${CMAKE_INSTALL_FULL_DOCDIR}" -I${CMAKE_SOURCE_DIR}/include
    -I${CMAKE_SOURCE_DIR}/runtime -I${CMAKE_SOURCE_DIR}/server -I${CMAKE_SOURCE_DIR}/staprun)
  set(STAPRUN_ARM64_SRC staprun/staprun.c staprun/modinfo.c staprun/modparam.c staprun/optarg.c
    staprun/privilege.c server/wire.c)
  set(STAPIO_ARM64_SRC stapio/main.c stapio/control.c stapio/input.c stapio/monitor.c stapio/relay.c
    stapio/system.c stapio/target.c staprun/modparam.c staprun/optarg.c)
  list(TRANSFORM STAPRUN_ARM64_SRC PREPEND ${CMAKE_SOURCE_DIR}/)
  list(TRANSFORM STAPIO_ARM64_SRC PREPEND ${CMAKE_SOURCE_DIR}/)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/bin/staprun-arm64
    COMMAND ${STAPC_AARCH64_CC} ${STAPC_ARM64_FLAGS} -o ${CMAKE_BINARY_DIR}/bin/staprun-arm64
      ${STAPRUN_ARM64_SRC} ${STAPC_AARCH64_CRYPTO} ${STAPC_ARM64_CRYPTO_LIBS}
    DEPENDS ${STAPRUN_ARM64_SRC} VERBATIM)
  add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/bin/stapio-arm64
    COMMAND ${STAPC_AARCH64_CC} ${STAPC_ARM64_FLAGS} -o ${CMAKE_BINARY_DIR}/bin/stapio-arm64
      ${STAPIO_ARM64_SRC} -lpthread
    DEPENDS ${STAPIO_ARM64_SRC} VERBATIM)
  add_custom_target(stapc_arm64_tools ALL DEPENDS ${CMAKE_BINARY_DIR}/bin/staprun-arm64
    ${CMAKE_BINARY_DIR}/bin/stapio-arm64)
else()
  message(STATUS "no aarch64-linux-gnu-gcc or libssl-dev:arm64: no staprun-arm64/stapio-arm64 (stapvm --arch arm64)")
endif()
