// expat -> flat token array. The only file in devkit that calls expat.
//
// expat rather than libxml2: it depends on libc alone (libxml2 loads ICU, and ICU the C++
// runtime, into every process that reads an XML plist), it is what Python's plistlib parses
// with, and its push interface hands over every event with its byte position. Whitespace
// between container elements is dropped here so the builder sees ~one token per tag.
#include "ShimInternals.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int px_is_leaf(uint8_t tag) {
    switch (tag) {
    case PX_TAG_KEY: case PX_TAG_STRING: case PX_TAG_INTEGER: case PX_TAG_REAL:
    case PX_TAG_DATE: case PX_TAG_DATA: case PX_TAG_OTHER:
        return 1;
    default:
        return 0;
    }
}

uint8_t px_tag_named(const char *n, size_t length) {
#define PX_NAME_IS(literal) (length == sizeof(literal) - 1 && memcmp(n, literal, length) == 0)
    if (length == 0) return PX_TAG_OTHER;
    switch (n[0]) {
    case 'a': return PX_NAME_IS("array") ? PX_TAG_ARRAY : PX_TAG_OTHER;
    case 'd':
        if (PX_NAME_IS("dict")) return PX_TAG_DICT;
        if (PX_NAME_IS("date")) return PX_TAG_DATE;
        if (PX_NAME_IS("data")) return PX_TAG_DATA;
        return PX_TAG_OTHER;
    case 'f': return PX_NAME_IS("false") ? PX_TAG_FALSE : PX_TAG_OTHER;
    case 'i': return PX_NAME_IS("integer") ? PX_TAG_INTEGER : PX_TAG_OTHER;
    case 'k': return PX_NAME_IS("key") ? PX_TAG_KEY : PX_TAG_OTHER;
    case 'p': return PX_NAME_IS("plist") ? PX_TAG_PLIST : PX_TAG_OTHER;
    case 'r': return PX_NAME_IS("real") ? PX_TAG_REAL : PX_TAG_OTHER;
    case 's': return PX_NAME_IS("string") ? PX_TAG_STRING : PX_TAG_OTHER;
    case 't': return PX_NAME_IS("true") ? PX_TAG_TRUE : PX_TAG_OTHER;
    default: return PX_TAG_OTHER;
    }
#undef PX_NAME_IS
}

/// The tag of an element name as expat hands it over. The parser does not process
/// namespaces, so a prefixed name (`p:dict`) arrives whole and is no tag of the DTD.
static uint8_t px_tag_of(const XML_Char *name) {
    return px_tag_named(name, strlen(name));
}

/// The byte offset where the current event starts.
static uint64_t px_event_start(const px_state *st) {
    if (st->xml == NULL) return 0;  // the direct tokenizer's failures carry no expat place
    long index = (long)XML_GetCurrentByteIndex(st->xml);
    return index > 0 ? (uint64_t)index : 0;
}

/// Records the first failure at byte `offset` (the reader turns it into line:column) and
/// halts expat.
static void px_fail_at(px_state *st, uint64_t offset, const char *fmt, ...) {
    px_result *out = st->out;
    if (out->failed) return;
    out->failed = 1;
    out->error_line = 0;
    out->error_column = 0;
    out->error_offset = offset;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->error_message, sizeof out->error_message, fmt, ap);
    va_end(ap);
    if (st->xml != NULL) XML_StopParser(st->xml, XML_FALSE);
}

static void px_out_of_memory(px_state *st) {
    px_fail_at(st, px_event_start(st), "out of memory");
}

int px_append_text(px_state *st, const char *bytes, size_t len) {
    px_result *out = st->out;
    if (out->text_length + len > st->text_capacity) {
        size_t cap = st->text_capacity ? st->text_capacity : 4096;
        while (cap < out->text_length + len) cap *= 2;
        char *grown = realloc(out->text, cap);
        if (grown == NULL) { px_out_of_memory(st); return 0; }
        out->text = grown;
        st->text_capacity = cap;
    }
    memcpy(out->text + out->text_length, bytes, len);
    out->text_length += len;
    return 1;
}

px_token *px_push_token(px_state *st, uint8_t kind, uint8_t tag, uint64_t offset) {
    px_result *out = st->out;
    if (out->token_count == st->token_capacity) {
        size_t cap = st->token_capacity ? st->token_capacity * 2 : 1024;
        px_token *grown = realloc(out->tokens, cap * sizeof(px_token));
        if (grown == NULL) { px_out_of_memory(st); return NULL; }
        out->tokens = grown;
        st->token_capacity = cap;
    }
    px_token *t = &out->tokens[out->token_count++];
    t->kind = kind;
    t->tag = tag;
    t->reserved = 0;
    t->text_offset = out->text_length;
    t->text_length = 0;
    t->byte_offset = offset;
    return t;
}

int px_push_open(px_state *st, uint8_t tag) {
    if (st->depth == st->stack_capacity) {
        size_t cap = st->stack_capacity ? st->stack_capacity * 2 : 64;
        uint8_t *grown = realloc(st->stack, cap);
        if (grown == NULL) { px_out_of_memory(st); return 0; }
        st->stack = grown;
        st->stack_capacity = cap;
    }
    st->stack[st->depth++] = tag;
    return 1;
}

static void XMLCALL px_start(void *ctx, const XML_Char *name, const XML_Char **attributes) {
    (void)attributes;
    px_state *st = ctx;
    if (st->out->failed) return;
    uint8_t tag = px_tag_of(name);
    // The token stands at the tag's `>`; an empty element's end moves it to the `/` of `/>`.
    uint64_t end = px_event_start(st) + (uint64_t)XML_GetCurrentByteCount(st->xml);
    px_token *t = px_push_token(st, PX_TOKEN_START, tag, end >= st->unit ? end - st->unit : 0);
    if (t == NULL) return;
    if (tag == PX_TAG_OTHER) {
        size_t len = strlen(name);
        if (!px_append_text(st, name, len)) return;
        t = &st->out->tokens[st->out->token_count - 1];
        t->text_length = (uint32_t)len;
    }
    if (!px_push_open(st, tag)) return;
    st->last_is_text = 0;
}

static void XMLCALL px_end(void *ctx, const XML_Char *name) {
    px_state *st = ctx;
    if (st->out->failed) return;
    uint8_t tag = px_tag_of(name);
    if (st->depth > 0) st->depth--;
    // expat reports an empty element's end as an event of no bytes at the end of its tag,
    // right after its start: whose token then stands at the `/` of `/>`.
    int count = XML_GetCurrentByteCount(st->xml);
    uint64_t end = px_event_start(st) + (uint64_t)(count > 0 ? count : 0);
    if (count == 0 && st->out->token_count > 0) {
        px_token *start = &st->out->tokens[st->out->token_count - 1];
        if (start->kind == PX_TOKEN_START && start->byte_offset >= st->unit) start->byte_offset -= st->unit;
    }
    px_push_token(st, PX_TOKEN_END, tag, end);
    st->last_is_text = 0;
}

static void XMLCALL px_characters(void *ctx, const XML_Char *ch, int len) {
    px_state *st = ctx;
    if (len <= 0 || st->out->failed) return;
    uint8_t parent = st->depth > 0 ? st->stack[st->depth - 1] : PX_TAG_OTHER;
    if (!px_is_leaf(parent) || st->depth == 0) {
        // Between container elements only whitespace is allowed; keep non-blank text as a
        // token so the builder can report it with its position.
        int blank = 1;
        for (int i = 0; i < len; i++) {
            char c = ch[i];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') { blank = 0; break; }
        }
        if (blank) return;
    }
    if (st->last_is_text) {
        if (!px_append_text(st, ch, (size_t)len)) return;
        px_token *t = &st->out->tokens[st->out->token_count - 1];
        uint64_t total = (uint64_t)t->text_length + (uint64_t)len;
        if (total > UINT32_MAX) { px_fail_at(st, px_event_start(st), "text node larger than 4 GiB"); return; }
        t->text_length = (uint32_t)total;
        return;
    }
    // A text token stands where its text starts.
    px_token *t = px_push_token(st, PX_TOKEN_TEXT, parent, px_event_start(st));
    if (t == NULL) return;
    size_t index = st->out->token_count - 1;
    if (!px_append_text(st, ch, (size_t)len)) return;
    st->out->tokens[index].text_length = (uint32_t)len;
    st->last_is_text = 1;
}

static void XMLCALL px_entity_decl(void *ctx, const XML_Char *name, int is_parameter_entity,
                                   const XML_Char *value, int value_length, const XML_Char *base,
                                   const XML_Char *system_id, const XML_Char *public_id,
                                   const XML_Char *notation_name) {
    (void)is_parameter_entity; (void)value; (void)value_length; (void)base; (void)system_id;
    (void)public_id; (void)notation_name;
    px_state *st = ctx;
    px_fail_at(st, px_event_start(st), "entity declaration '%s' is not allowed in a property list", name);
}

/// expat skips a reference to an undeclared entity when the document has an external DTD
/// it does not read (every plist names Apple's): only the five predefined entities exist.
static void XMLCALL px_skipped_entity(void *ctx, const XML_Char *name, int is_parameter_entity) {
    (void)is_parameter_entity;
    px_state *st = ctx;
    px_fail_at(st, px_event_start(st), "undefined entity '%s'", name);
}

/// Most attributes one element may carry. devkit reads one (`<plist version=…>`); an XML
/// parser checks each new attribute of an element against the earlier ones, so 200k
/// attributes can cost seconds (issue 15 §5). `px_scan` refuses more than this before the
/// parser sees the piece.
#define PX_MAX_ATTRIBUTES 16

/// Where the markup scan stands between pieces: a small lexer that finds start tags
/// (skipping comments, CDATA, processing instructions and declarations), counts the `=`
/// outside quotes in each, and knows where an unfinished construct began.
typedef enum {
    PX_SCAN_TEXT, PX_SCAN_LT, PX_SCAN_BANG, PX_SCAN_BANG_DASH, PX_SCAN_COMMENT, PX_SCAN_CDATA,
    PX_SCAN_DECL, PX_SCAN_PI, PX_SCAN_END_TAG, PX_SCAN_TAG
} px_scan_mode;

typedef struct {
    uint8_t mode;
    uint8_t quote;       // the open quote inside a tag or declaration, or 0
    uint8_t run;         // '-' before '>' in a comment, ']' in CDATA, '?' in a PI
    uint32_t attributes; // '=' seen in the current start tag
    uint64_t fed;        // bytes scanned in earlier pieces
    uint64_t markup;     // offset of the '<' of the construct the scan is in (mode != TEXT)
} px_scan_state;

struct px_parser {
    px_result result;
    px_state state;
    px_scan_state scan;
    /// Input held back from expat: the bytes from the '<' of a construct the last piece
    /// ended inside. expat 2.5 re-tokenises an unfinished token from its start at every
    /// call, so a token fed in many pieces costs quadratic time; held back, each byte is
    /// tokenised once.
    char *held;
    size_t held_length;
    size_t held_capacity;
    uint64_t given;      // bytes handed to expat so far
    int started;
    px_direct_state direct;
};

/// True for the bytes a tag's scan must look at: quotes, '=' and '>'.
static inline int px_tag_special(unsigned char c) {
    return c == '"' || c == '\'' || c == '=' || c == '>';
}

/// Scans one piece; returns 0, or -1 when an element has more than PX_MAX_ATTRIBUTES
/// attributes, after recording the failure with the byte offset of the attribute too many
/// (`error_offset`: counting lines here would cost every parse a pass over its text).
/// Linear in `length`.
static int px_scan(px_parser *p, const unsigned char *bytes, size_t length) {
    px_scan_state s = p->scan;
    size_t i = 0;
    while (i < length) {
        if (s.mode == PX_SCAN_TEXT) {
            // Between tags only '<' matters: jump to it.
            const unsigned char *lt = memchr(bytes + i, '<', length - i);
            if (!lt) break;
            // The '<' and, for the common cases, the byte after it: a start or an end tag.
            s.mode = PX_SCAN_LT;
            i = (size_t)(lt - bytes);
            s.markup = s.fed + i;
            i++;
            if (i == length) break;
            unsigned char next = bytes[i];
            if (next == '/') {
                s.mode = PX_SCAN_END_TAG;
            } else if (next != '!' && next != '?') {
                s.mode = PX_SCAN_TAG; s.quote = 0; s.attributes = 0;
            } else {
                continue;  // comments, CDATA, PIs, declarations: the state machine below
            }
            i++;
            continue;
        }
        if ((s.mode == PX_SCAN_TAG && !s.quote) || s.mode == PX_SCAN_END_TAG) {
            // Inside a tag only quotes, '=' and '>' matter: skip the rest.
            while (i < length && !px_tag_special(bytes[i])) i++;
            if (i == length) break;
        }
        unsigned char c = bytes[i];
        switch (s.mode) {
        case PX_SCAN_TEXT:
            break;
        case PX_SCAN_LT:
            if (c == '!') s.mode = PX_SCAN_BANG;
            else if (c == '?') { s.mode = PX_SCAN_PI; s.run = 0; }
            else if (c == '/') s.mode = PX_SCAN_END_TAG;
            else { s.mode = PX_SCAN_TAG; s.quote = 0; s.attributes = 0; }
            break;
        case PX_SCAN_BANG:
            if (c == '-') s.mode = PX_SCAN_BANG_DASH;
            else if (c == '[') { s.mode = PX_SCAN_CDATA; s.run = 0; }
            else { s.mode = PX_SCAN_DECL; s.quote = 0; if (c == '>') s.mode = PX_SCAN_TEXT; }
            break;
        case PX_SCAN_BANG_DASH:
            s.mode = c == '-' ? PX_SCAN_COMMENT : PX_SCAN_DECL;
            s.run = 0; s.quote = 0;
            break;
        case PX_SCAN_COMMENT:
            if (c == '>' && s.run >= 2) s.mode = PX_SCAN_TEXT;
            s.run = c == '-' ? (uint8_t)(s.run < 2 ? s.run + 1 : 2) : 0;
            break;
        case PX_SCAN_CDATA:
            if (c == '>' && s.run >= 2) s.mode = PX_SCAN_TEXT;
            s.run = c == ']' ? (uint8_t)(s.run < 2 ? s.run + 1 : 2) : 0;
            break;
        case PX_SCAN_PI:
            if (c == '>' && s.run) s.mode = PX_SCAN_TEXT;
            s.run = c == '?';
            break;
        case PX_SCAN_DECL:
            if (s.quote) { if (c == s.quote) s.quote = 0; }
            else if (c == '"' || c == '\'') s.quote = c;
            else if (c == '>') s.mode = PX_SCAN_TEXT;
            break;
        case PX_SCAN_END_TAG:
            if (c == '>') s.mode = PX_SCAN_TEXT;
            break;
        case PX_SCAN_TAG:
            if (s.quote) { if (c == s.quote) s.quote = 0; }
            else if (c == '"' || c == '\'') s.quote = c;
            else if (c == '>') s.mode = PX_SCAN_TEXT;
            else if (c == '=' && ++s.attributes > PX_MAX_ATTRIBUTES) {
                px_result *out = &p->result;
                out->failed = 1;
                out->error_line = 0;  // the reader turns the offset into line:column
                out->error_column = 0;
                out->error_offset = s.fed + i;
                snprintf(out->error_message, sizeof out->error_message,
                         "an element has more than %d attributes (a plist uses at most one)", PX_MAX_ATTRIBUTES);
                p->scan = s;
                return -1;
            }
            break;
        }
        i++;
    }
    s.fed += length;
    p->scan = s;
    return 0;
}

px_parser *px_parser_create(void) {
    px_parser *p = calloc(1, sizeof *p);
    if (p == NULL) return NULL;
    p->state.out = &p->result;
    p->state.unit = 1;
    return p;
}

/// expat's parser, made at the first piece fed to it: a document the direct tokenizer reads
/// never loads expat at all (LazyLibraries opens it at its first call).
static int px_expat(px_parser *p) {
    if (p->state.xml != NULL) return 1;
    // No namespace processing (names arrive whole), no encoding forced (expat reads the
    // declaration or the byte-order mark: UTF-8, UTF-16, ISO-8859-1, US-ASCII). expat never
    // reads external entities or DTDs unless given a handler for them; it gets none.
    XML_Parser xml = XML_ParserCreate(NULL);
    if (xml == NULL) return 0;
    p->state.xml = xml;
    XML_SetUserData(xml, &p->state);
    XML_SetElementHandler(xml, px_start, px_end);
    XML_SetCharacterDataHandler(xml, px_characters);
    XML_SetEntityDeclHandler(xml, px_entity_decl);
    XML_SetSkippedEntityHandler(xml, px_skipped_entity);
    return 1;
}

/// Hands `length` bytes to expat; on a failure expat found, records its message and place.
static void px_give(px_parser *p, const char *bytes, size_t length, int terminate) {
    px_result *out = &p->result;
    XML_Parser xml = p->state.xml;
    enum XML_Status status = XML_Parse(xml, bytes, (int)length, terminate);
    p->given += length;
    if (status == XML_STATUS_ERROR && !out->failed) {
        out->failed = 1;
        out->error_line = (uint32_t)XML_GetCurrentLineNumber(xml);
        out->error_column = (uint32_t)XML_GetCurrentColumnNumber(xml) + 1;
        long index = (long)XML_GetCurrentByteIndex(xml);
        out->error_offset = index > 0 ? (uint64_t)index : 0;
        const XML_LChar *message = XML_ErrorString(XML_GetErrorCode(xml));
        snprintf(out->error_message, sizeof out->error_message, "%s", message ? message : "malformed XML");
    }
}

/// Appends to the held-back bytes.
static int px_hold(px_parser *p, const char *bytes, size_t length) {
    if (p->held_length + length > p->held_capacity) {
        size_t cap = p->held_capacity ? p->held_capacity : 4096;
        while (cap < p->held_length + length) cap *= 2;
        char *grown = realloc(p->held, cap);
        if (grown == NULL) return 0;
        p->held = grown;
        p->held_capacity = cap;
    }
    memcpy(p->held + p->held_length, bytes, length);
    p->held_length += length;
    return 1;
}

int px_parser_feed(px_parser *p, const char *bytes, size_t length, int terminate) {
    px_result *out = &p->result;
    if (out->failed) return -1;
    if (p->direct.stage != 0) {
        out->failed = 1;
        snprintf(out->error_message, sizeof out->error_message, "px_parser_feed after px_parser_tokenize");
        return -1;
    }
    if (!px_expat(p)) goto out_of_memory;
    if (length > (size_t)INT32_MAX) {
        out->failed = 1;
        snprintf(out->error_message, sizeof out->error_message, "input piece larger than 2 GiB");
        return -1;
    }
    if (!p->started && length > 0) {
        p->started = 1;
        const unsigned char *b = (const unsigned char *)bytes;
        // UTF-16 (a byte-order mark, or '<' as two bytes): positions step in two-byte units.
        if (length >= 2 && ((b[0] == 0xFF && b[1] == 0xFE) || (b[0] == 0xFE && b[1] == 0xFF) ||
                            (b[0] == '<' && b[1] == 0) || (b[0] == 0 && b[1] == '<')))
            p->state.unit = 2;
    }
    if (px_scan(p, (const unsigned char *)bytes, length) != 0) return -1;
    // Everything before the construct the piece ends inside goes to expat now; that
    // construct waits for the piece that completes it.
    uint64_t end = p->given + p->held_length + length;
    uint64_t ready = (!terminate && p->scan.mode != PX_SCAN_TEXT) ? p->scan.markup : end;
    if (ready < p->given) ready = p->given;  // cannot happen: the scan only moves forward
    if (p->held_length > 0) {
        if (!px_hold(p, bytes, length)) goto out_of_memory;
        size_t give = (size_t)(ready - p->given);
        if (give > (size_t)INT32_MAX) goto too_large;
        px_give(p, p->held, give, terminate);
        memmove(p->held, p->held + give, p->held_length - give);
        p->held_length -= give;
    } else {
        size_t give = (size_t)(ready - p->given);
        px_give(p, bytes, give, terminate);
        if (!out->failed && give < length && !px_hold(p, bytes + give, length - give)) goto out_of_memory;
    }
    return out->failed ? -1 : 0;
out_of_memory:
    out->failed = 1;
    snprintf(out->error_message, sizeof out->error_message, "out of memory");
    return -1;
too_large:
    out->failed = 1;
    snprintf(out->error_message, sizeof out->error_message, "an XML construct larger than 2 GiB");
    return -1;
}

int px_parser_tokenize(px_parser *p, const char *bytes, size_t length, size_t token_limit) {
    if (p->result.failed) return -1;
    if (p->state.xml != NULL) return PX_DIRECT_UNSUPPORTED;  // already fed to expat
    return px_direct_run(&p->state, &p->direct, (const unsigned char *)bytes, length, token_limit);
}

const px_result *px_parser_result(const px_parser *p) {
    return &p->result;
}

void px_parser_discard(px_parser *p, size_t count) {
    px_result *out = &p->result;
    if (count >= out->token_count) {
        out->token_count = 0;
        out->text_length = 0;
        p->state.last_is_text = 0;
        return;
    }
    size_t keep = out->token_count - count;
    uint64_t text_start = out->tokens[count].text_offset;
    memmove(out->tokens, out->tokens + count, keep * sizeof(px_token));
    memmove(out->text, out->text + text_start, out->text_length - text_start);
    out->text_length -= text_start;
    for (size_t i = 0; i < keep; i++) out->tokens[i].text_offset -= text_start;
    out->token_count = keep;
}

void px_parser_free(px_parser *p) {
    if (p == NULL) return;
    if (p->state.xml != NULL) XML_ParserFree(p->state.xml);
    free(p->state.stack);
    free(p->result.tokens);
    free(p->result.text);
    free(p->held);
    free(p);
}
