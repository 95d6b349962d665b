// A flat token stream over an XML property list, produced by expat's push parser or, for
// the common shape of a plist, by a direct tokenizer that gives the same tokens.
//
// This header names no expat type: the Swift side sees tokens, not the parser.
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
    uint32_t text_length;  ///< bytes of UTF-8 text in `text` (text: content; start: element name)
    uint64_t text_offset;  ///< where the text starts in px_result.text
    /// Input byte offset of the token's place: a start tag's `>` (the `/` of `/>`), just
    /// after an end tag (or after the `/>` of an empty element), a text's first byte. No
    /// line and column: counting them for every token cost more than the parse; the reader
    /// counts them from the offset for the one it reports.
    uint64_t byte_offset;
} px_token;

typedef struct {
    px_token *tokens;
    size_t token_count;
    char *text;            ///< all text contents back to back (UTF-8, not NUL-separated)
    size_t text_length;
    int failed;            ///< non-zero when the document is not well-formed or not allowed
    uint32_t error_line;   ///< 1-based (expat's errors); 0 when only `error_offset` is known
    uint32_t error_column; ///< 1-based, in characters
    uint64_t error_offset; ///< input byte offset of the failure
    char error_message[512];
} px_result;

/// A streaming tokenizer: feed input piece by piece, consume the tokens produced so far,
/// discard them, feed more. Memory stays bounded by one piece's tokens and the largest
/// single tag, comment or declaration, not the document.
///
/// It never loads external entities or DTDs, refuses entity declarations and references to
/// undeclared entities, and refuses an element with more than 16 attributes. The encodings
/// expat knows are accepted (UTF-8, UTF-16, ISO-8859-1, US-ASCII); token text is UTF-8.
typedef struct px_parser px_parser;

/// A new parser, or NULL when out of memory.
px_parser *px_parser_create(void);

/// Parses the next `length` bytes (`terminate` non-zero for the last piece) and appends
/// tokens to the result. Returns 0, or -1 once the document has failed (see the result's
/// error fields; later calls do nothing).
int px_parser_feed(px_parser *parser, const char *bytes, size_t length, int terminate);

/// `px_parser_tokenize`'s answer for a document it leaves to expat.
#define PX_DIRECT_UNSUPPORTED (-2)

/// Text after which `px_parser_tokenize` ends a batch (see there).
#define PX_DIRECT_TEXT_BATCH ((size_t)1 << 20)

/// Tokenizes a whole document held in memory without expat, giving exactly the tokens
/// `px_parser_feed` gives, for the documents nearly every property list is: UTF-8, an XML
/// declaration and a DOCTYPE without internal subset, the plist DTD's elements, at most one
/// attribute, the predefined and character references, comments. Anything else (another
/// encoding, CDATA, processing instructions, unknown elements, any malformed construct) is
/// left to expat, which then also words the error.
///
/// Call it again with the same bytes after consuming and discarding tokens: returns 1 when
/// the document is done, 0 after at least `token_limit` new tokens or PX_DIRECT_TEXT_BATCH
/// bytes of new text (call again), -1 once it has
/// failed (out of memory), or PX_DIRECT_UNSUPPORTED: start over with `px_parser_feed` on a
/// new parser. Never mixed with `px_parser_feed` on one parser.
int px_parser_tokenize(px_parser *parser, const char *bytes, size_t length, size_t token_limit);

/// Tokens and text produced and not yet discarded.
const px_result *px_parser_result(const px_parser *parser);

/// Drops the first `count` tokens; the rest (and their text) move to the front.
void px_parser_discard(px_parser *parser, size_t count);

void px_parser_free(px_parser *parser);

#ifdef __cplusplus
}
#endif

#endif
