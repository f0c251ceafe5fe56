# The kernel runner's process guard (ProcessGuard.cpp) as a small library of its own: it links libseccomp, which
# nothing else in Skillforge needs. Included by core/kernels (the runner and the guard's test in the Skillforge
# build) and by the runner's standalone project (tests/gpu/run.sh), so it is defined once.
include_guard(GLOBAL)
find_package(PkgConfig REQUIRED)
pkg_check_modules(SECCOMP REQUIRED IMPORTED_TARGET libseccomp)
add_library(skillforge_process_guard STATIC
  "${CMAKE_CURRENT_LIST_DIR}/ProcessGuard.cpp" "${CMAKE_CURRENT_LIST_DIR}/ProcessGuard.h")
target_include_directories(skillforge_process_guard PUBLIC "${CMAKE_CURRENT_LIST_DIR}/..")
target_link_libraries(skillforge_process_guard PRIVATE PkgConfig::SECCOMP PUBLIC ${CMAKE_DL_LIBS})
if(TARGET Skillforge::CompileOptions)
  target_link_libraries(skillforge_process_guard PRIVATE Skillforge::CompileOptions)
else()
  set_target_properties(skillforge_process_guard PROPERTIES CXX_STANDARD 17 CXX_STANDARD_REQUIRED ON)
  target_compile_options(skillforge_process_guard PRIVATE -Wall -Wextra)
endif()
