# Writes OUT (a .cpp) defining `const char* const clarray::detail::kernel_source_<name>` for each
# .cl file in SOURCES, so the library carries its OpenCL C templates.
set(text "// Generated from kernels/*.cl by cmake/embed_kernels.cmake. Do not edit.\nnamespace clarray::detail {\n")
foreach(src IN LISTS SOURCES)
  get_filename_component(name "${src}" NAME_WE)
  file(READ "${src}" body)
  string(APPEND text "extern const char* const kernel_source_${name};\nconst char* const kernel_source_${name} = R\"clarray_cl(${body})clarray_cl\";\n")
endforeach()
string(APPEND text "} // namespace clarray::detail\n")
file(WRITE "${OUT}.tmp" "${text}")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
