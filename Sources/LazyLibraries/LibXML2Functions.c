// libxml2, from Debian's libxml2: every function PlistXMLShim calls. libxml2 brings ICU's
// libraries with it.
#include "LazyLibrary.h"

#include <libxml/SAX2.h>
#include <libxml/entities.h>
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>

#define LIBXML2_FUNCTIONS(X, V)                                                                            \
    X(xmlParserCtxtPtr, xmlCreatePushParserCtxt, (xmlSAXHandlerPtr sax, void *user_data, const char *chunk, int size, const char *filename), (sax, user_data, chunk, size, filename)) \
    X(int, xmlCtxtUseOptions, (xmlParserCtxtPtr context, int options), (context, options))               \
    V(xmlFreeDoc, (xmlDocPtr document), (document))                                                       \
    V(xmlFreeParserCtxt, (xmlParserCtxtPtr context), (context))                                           \
    X(xmlEntityPtr, xmlGetPredefinedEntity, (const xmlChar *name), (name))                                \
    X(int, xmlParseChunk, (xmlParserCtxtPtr context, const char *chunk, int size, int terminate), (context, chunk, size, terminate)) \
    X(int, xmlSAX2GetColumnNumber, (void *context), (context))                                            \
    X(int, xmlSAX2GetLineNumber, (void *context), (context))                                              \
    V(xmlSetGenericErrorFunc, (void *context, xmlGenericErrorFunc handler), (context, handler))           \
    V(xmlStopParser, (xmlParserCtxtPtr context), (context))

LAZY_LIBRARY(libxml2, "libxml2.so.2", "libxml2", LIBXML2_FUNCTIONS);

#define LIBXML2_FORWARD(result, name, parameters, arguments) LAZY_FORWARD(libxml2, result, name, parameters, arguments)
#define LIBXML2_FORWARD_VOID(name, parameters, arguments) LAZY_FORWARD_VOID(libxml2, name, parameters, arguments)
LIBXML2_FUNCTIONS(LIBXML2_FORWARD, LIBXML2_FORWARD_VOID)
