# Installs the built library into a scratch prefix, then configures, builds and runs a consumer
# project that uses find_package(clarray), and builds and runs the same consumer with the flags
# of pkg-config's clarray.pc (compiler CXX).
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BINARY_DIR} --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "install failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR}/tests/consumer -B ${WORK_DIR}/build
                "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix;${PREFIX_PATH}" "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}"
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "consumer configure failed")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "consumer build failed")
endif()
execute_process(COMMAND ${WORK_DIR}/build/consumer RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "consumer run failed")
endif()

# The same consumer through pkg-config.
# The scratch prefix first, then the caller's path (where the dependencies' .pc files may be).
set(pc_path "${WORK_DIR}/prefix/${LIBDIR}/pkgconfig")
if(NOT "$ENV{PKG_CONFIG_PATH}" STREQUAL "")
  string(APPEND pc_path ":$ENV{PKG_CONFIG_PATH}")
endif()
set(pc_env ${CMAKE_COMMAND} -E env "PKG_CONFIG_PATH=${pc_path}")
execute_process(COMMAND ${pc_env} pkg-config --modversion clarray
                OUTPUT_VARIABLE pc_version OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "pkg-config does not find the installed clarray.pc")
endif()
execute_process(COMMAND ${pc_env} pkg-config --cflags --libs clarray
                OUTPUT_VARIABLE pc_flags OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "pkg-config --cflags --libs clarray failed")
endif()
message(STATUS "clarray.pc ${pc_version}: ${pc_flags}")
separate_arguments(pc_flags UNIX_COMMAND "${pc_flags}")
separate_arguments(cxx_flags UNIX_COMMAND "${CXX_FLAGS}")
execute_process(COMMAND ${CXX} -std=c++17 ${cxx_flags} "-DCONSUMER_EXPECTED_VERSION=\"${pc_version}\""
                        ${SOURCE_DIR}/tests/consumer/main.cpp -o ${WORK_DIR}/consumer_pkgconfig
                        ${pc_flags}
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "consumer build with pkg-config flags failed")
endif()
execute_process(COMMAND ${WORK_DIR}/consumer_pkgconfig RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "consumer (pkg-config) run failed: ${rc}")
endif()
