// A flat token stream over an XML property list, produced by libxml2's SAX2 parser.
//
// This header deliberately names no libxml2 type: Swift code that imports it can also
// import Foundation (libxml2's headers and Foundation both define ICU's UErrorCode).
#ifndef PLIST_XML_SHIM_H
#define PLIST_XML_SHIM_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Element names of Apple's plist DTD, plus PX_TAG_OTHER for anything else.
typedef enum {
    PX_TAG_OTHER = 0,
    PX_TAG_PLIST,
    PX_TAG_DICT,
    PX_TAG_ARRAY,
    PX_TAG_KEY,
    PX_TAG_STRING,
    PX_TAG_INTEGER,
    PX_TAG_REAL,
    PX_TAG_DATE,
    PX_TAG_DATA,
    PX_TAG_TRUE,
    PX_TAG_FALSE,
} px_tag;

typedef enum {
    PX_TOKEN_START = 1,  ///< start tag; text_* name the element (for PX_TAG_OTHER messages)
    PX_TOKEN_END = 2,    ///< end tag
    PX_TOKEN_TEXT = 3,   ///< character data (entities decoded, CDATA included), merged
} px_token_kind;

typedef struct {
    uint8_t kind;          ///< px_token_kind
    uint8_t tag;           ///< px_tag (start and end tokens)
    uint16_t reserved;
    uint32_t line;         ///< 1-based line where the parser stood when the token ended
    uint32_t column;       ///< 1-based column, same place
    uint32_t text_length;  ///< bytes of UTF-8 text in `text` (text: content; start: element name)
    uint64_t text_offset;  ///< where the text starts in px_result.text
    uint64_t byte_offset;  ///< input byte offset just after the token
} px_token;

typedef struct {
    px_token *tokens;
    size_t token_count;
    char *text;            ///< all text contents back to back (UTF-8, not NUL-separated)
    size_t text_length;
    int failed;            ///< non-zero when the document is not well-formed or not allowed
    uint32_t error_line;
    uint32_t error_column;
    char error_message[512];
} px_result;

/// Tokenizes `length` bytes of XML (any encoding libxml2 detects: UTF-8, UTF-16 with BOM).
///
/// Never loads external entities or DTDs, refuses entity declarations, and keeps libxml2's
/// default size and depth limits. Returns 0 on success; on failure `out->failed` is set and
/// the error fields say where. Always release the result with px_result_free.
int px_tokenize(const char *bytes, size_t length, px_result *out);

void px_result_free(px_result *result);

#ifdef __cplusplus
}
#endif

#endif
