// libyaml, from Debian's libyaml-0-2: every function LintConfigFile's YAMLCalls calls.
#include "LazyLibrary.h"

#include <yaml.h>

#define LIBYAML_FUNCTIONS(X, V)                                                                            \
    V(yaml_event_delete, (yaml_event_t * event), (event))                                                 \
    V(yaml_parser_delete, (yaml_parser_t * parser), (parser))                                             \
    X(int, yaml_parser_initialize, (yaml_parser_t * parser), (parser))                                    \
    X(int, yaml_parser_parse, (yaml_parser_t * parser, yaml_event_t *event), (parser, event))             \
    V(yaml_parser_set_encoding, (yaml_parser_t * parser, yaml_encoding_t encoding), (parser, encoding))   \
    V(yaml_parser_set_input_string, (yaml_parser_t * parser, const unsigned char *input, size_t size), (parser, input, size))

LAZY_LIBRARY(libyaml, "libyaml-0.so.2", "libyaml-0-2", LIBYAML_FUNCTIONS);

#define LIBYAML_FORWARD(result, name, parameters, arguments) LAZY_FORWARD(libyaml, result, name, parameters, arguments)
#define LIBYAML_FORWARD_VOID(name, parameters, arguments) LAZY_FORWARD_VOID(libyaml, name, parameters, arguments)
LIBYAML_FUNCTIONS(LIBYAML_FORWARD, LIBYAML_FORWARD_VOID)
