# One INTERFACE target that every Skillforge target links: language level, warnings and Qt's
# safety defines live here and nowhere else. -Wnull-dereference is left out: at -O3 GCC 12 reports
# false positives inside Qt's own headers.
add_library(skillforge_compile_options INTERFACE)
add_library(Skillforge::CompileOptions ALIAS skillforge_compile_options)

target_compile_features(skillforge_compile_options INTERFACE cxx_std_20)
target_compile_options(skillforge_compile_options INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align
    -Woverloaded-virtual -Wimplicit-fallthrough>
  $<$<BOOL:${SKILLFORGE_WARNINGS_AS_ERRORS}>:-Werror>)
target_compile_definitions(skillforge_compile_options INTERFACE
  QT_NO_CAST_FROM_ASCII
  QT_NO_CAST_TO_ASCII
  QT_NO_CAST_FROM_BYTEARRAY
  QT_NO_URL_CAST_FROM_STRING
  QT_USE_QSTRINGBUILDER
  QT_NO_FOREACH
  QT_NO_KEYWORDS
  QT_DISABLE_DEPRECATED_BEFORE=0x060400
  SKILLFORGE_VERSION="${PROJECT_VERSION}")
if(Qt6Core_VERSION VERSION_GREATER_EQUAL 6.7)
  target_compile_definitions(skillforge_compile_options INTERFACE QT_NO_CONTEXTLESS_CONNECT)
endif()
