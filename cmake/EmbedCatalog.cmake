# Reads DIR/*.json (sorted by name) and writes OUT: a C++ file defining weft::builtinCatalogFiles(), the text of each catalog JSON.
file(GLOB FILES ${DIR}/*.json)
list(SORT FILES)
set(body "")
set(count 0)
foreach(f ${FILES})
  file(READ ${f} text)
  get_filename_component(name ${f} NAME)
  string(APPEND body "    {\"${name}\", R\"WEFTJSON(${text})WEFTJSON\"},\n")
  math(EXPR count "${count} + 1")
endforeach()
file(WRITE ${OUT}.tmp "// Generated from resources/catalog by cmake/EmbedCatalog.cmake. Do not edit.
#include <utility>
#include <vector>
namespace weft {
const std::vector<std::pair<const char *, const char *>> &builtinCatalogFiles()
{
    static const std::vector<std::pair<const char *, const char *>> files{
${body}    };
    return files;
}
} // namespace weft
")
file(COPY_FILE ${OUT}.tmp ${OUT} ONLY_IF_DIFFERENT)
