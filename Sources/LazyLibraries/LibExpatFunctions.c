// expat, from Debian's libexpat1: every function PlistXMLShim calls. It needs libc alone.
#include "LazyLibrary.h"

#include <expat.h>

#define EXPAT_FUNCTIONS(X, V)                                                                              \
    X(XML_Parser, XML_ParserCreate, (const XML_Char *encoding), (encoding))                               \
    V(XML_ParserFree, (XML_Parser parser), (parser))                                                      \
    V(XML_SetUserData, (XML_Parser parser, void *userData), (parser, userData))                           \
    V(XML_SetElementHandler, (XML_Parser parser, XML_StartElementHandler start, XML_EndElementHandler end), (parser, start, end)) \
    V(XML_SetCharacterDataHandler, (XML_Parser parser, XML_CharacterDataHandler handler), (parser, handler)) \
    V(XML_SetEntityDeclHandler, (XML_Parser parser, XML_EntityDeclHandler handler), (parser, handler))    \
    V(XML_SetSkippedEntityHandler, (XML_Parser parser, XML_SkippedEntityHandler handler), (parser, handler)) \
    X(enum XML_Status, XML_Parse, (XML_Parser parser, const char *s, int len, int isFinal), (parser, s, len, isFinal)) \
    X(enum XML_Status, XML_StopParser, (XML_Parser parser, XML_Bool resumable), (parser, resumable))      \
    X(enum XML_Error, XML_GetErrorCode, (XML_Parser parser), (parser))                                    \
    X(const XML_LChar *, XML_ErrorString, (enum XML_Error code), (code))                                  \
    X(XML_Size, XML_GetCurrentLineNumber, (XML_Parser parser), (parser))                                  \
    X(XML_Size, XML_GetCurrentColumnNumber, (XML_Parser parser), (parser))                                \
    X(XML_Index, XML_GetCurrentByteIndex, (XML_Parser parser), (parser))                                  \
    X(int, XML_GetCurrentByteCount, (XML_Parser parser), (parser))

LAZY_LIBRARY(expat, "libexpat.so.1", "libexpat1", EXPAT_FUNCTIONS);

#define EXPAT_FORWARD(result, name, parameters, arguments) LAZY_FORWARD(expat, result, name, parameters, arguments)
#define EXPAT_FORWARD_VOID(name, parameters, arguments) LAZY_FORWARD_VOID(expat, name, parameters, arguments)
EXPAT_FUNCTIONS(EXPAT_FORWARD, EXPAT_FORWARD_VOID)
