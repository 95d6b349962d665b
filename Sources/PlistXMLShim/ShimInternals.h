// What the shim's two tokenizers share: the token output and the tag table. Not part of the
// public header: Swift sees tokens only.
#ifndef PLIST_XML_SHIM_INTERNALS_H
#define PLIST_XML_SHIM_INTERNALS_H

#include "PlistXMLShim.h"

#include <expat.h>

typedef struct {
    px_result *out;
    size_t token_capacity;
    size_t text_capacity;
    uint8_t *stack;         // tag of each open element
    size_t depth;
    size_t stack_capacity;
    int last_is_text;       // the last token is a text token that may be extended
    unsigned unit;          // bytes per code unit of the input: 1 (UTF-8), 2 (UTF-16)
    XML_Parser xml;
} px_state;

/// Where the direct tokenizer stands in a document between calls.
typedef struct {
    size_t position;        // next input byte to read
    uint8_t stage;          // px_direct_stage
    uint8_t saw_doctype;
} px_direct_state;

/// 1 for the tags whose content is text (and unknown elements, which the reader rejects).
int px_is_leaf(uint8_t tag);

/// The tag named by `length` bytes at `name` (PX_TAG_OTHER when the DTD has no such element).
uint8_t px_tag_named(const char *name, size_t length);

/// Appends a token; NULL (after recording the failure) when out of memory.
px_token *px_push_token(px_state *st, uint8_t kind, uint8_t tag, uint64_t offset);

/// Appends text to the result; 0 (after recording the failure) when out of memory.
int px_append_text(px_state *st, const char *bytes, size_t len);

/// Pushes `tag` on the stack of open elements; 0 (after recording the failure) when out of memory.
int px_push_open(px_state *st, uint8_t tag);

/// The direct tokenizer (PlistDirectTokenizer.c); see `px_parser_tokenize`.
int px_direct_run(px_state *st, px_direct_state *ds, const unsigned char *bytes, size_t length, size_t token_limit);

#endif
