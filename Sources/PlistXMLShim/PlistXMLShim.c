// libxml2 SAX2 -> flat token array. The only file in devkit that calls libxml2.
//
// SAX (not a DOM, not xmlTextReader) because it is the fastest libxml2 interface and the
// tokens it yields are all the Swift builder needs; whitespace between container elements
// is dropped here so the builder sees ~one token per tag.
#include "PlistXMLShim.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    px_result *out;
    size_t token_capacity;
    size_t text_capacity;
    uint8_t *stack;         // tag of each open element
    size_t depth;
    size_t stack_capacity;
    int last_is_text;       // the last token is a text token that may be extended
    int out_of_memory;
    xmlParserCtxtPtr ctxt;
} px_state;

static int px_is_leaf(uint8_t tag) {
    switch (tag) {
    case PX_TAG_KEY: case PX_TAG_STRING: case PX_TAG_INTEGER: case PX_TAG_REAL:
    case PX_TAG_DATE: case PX_TAG_DATA: case PX_TAG_OTHER:
        return 1;
    default:
        return 0;
    }
}

static uint8_t px_tag_of(const xmlChar *name, const xmlChar *prefix) {
    if (prefix != NULL) return PX_TAG_OTHER;
    const char *n = (const char *)name;
    switch (n[0]) {
    case 'a': return strcmp(n, "array") == 0 ? PX_TAG_ARRAY : PX_TAG_OTHER;
    case 'd':
        if (strcmp(n, "dict") == 0) return PX_TAG_DICT;
        if (strcmp(n, "date") == 0) return PX_TAG_DATE;
        if (strcmp(n, "data") == 0) return PX_TAG_DATA;
        return PX_TAG_OTHER;
    case 'f': return strcmp(n, "false") == 0 ? PX_TAG_FALSE : PX_TAG_OTHER;
    case 'i': return strcmp(n, "integer") == 0 ? PX_TAG_INTEGER : PX_TAG_OTHER;
    case 'k': return strcmp(n, "key") == 0 ? PX_TAG_KEY : PX_TAG_OTHER;
    case 'p': return strcmp(n, "plist") == 0 ? PX_TAG_PLIST : PX_TAG_OTHER;
    case 'r': return strcmp(n, "real") == 0 ? PX_TAG_REAL : PX_TAG_OTHER;
    case 's': return strcmp(n, "string") == 0 ? PX_TAG_STRING : PX_TAG_OTHER;
    case 't': return strcmp(n, "true") == 0 ? PX_TAG_TRUE : PX_TAG_OTHER;
    default: return PX_TAG_OTHER;
    }
}

/// Records the first failure and halts libxml2.
static void px_fail(px_state *st, const char *fmt, ...) {
    px_result *out = st->out;
    if (out->failed) return;
    out->failed = 1;
    out->error_line = (uint32_t)xmlSAX2GetLineNumber(st->ctxt);
    out->error_column = (uint32_t)xmlSAX2GetColumnNumber(st->ctxt);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->error_message, sizeof out->error_message, fmt, ap);
    va_end(ap);
    xmlStopParser(st->ctxt);
}

static int px_append_text(px_state *st, const char *bytes, size_t len) {
    px_result *out = st->out;
    if (out->text_length + len > st->text_capacity) {
        size_t cap = st->text_capacity ? st->text_capacity : 4096;
        while (cap < out->text_length + len) cap *= 2;
        char *grown = realloc(out->text, cap);
        if (grown == NULL) { st->out_of_memory = 1; px_fail(st, "out of memory"); return 0; }
        out->text = grown;
        st->text_capacity = cap;
    }
    memcpy(out->text + out->text_length, bytes, len);
    out->text_length += len;
    return 1;
}

static px_token *px_push_token(px_state *st, uint8_t kind, uint8_t tag) {
    px_result *out = st->out;
    if (out->token_count == st->token_capacity) {
        size_t cap = st->token_capacity ? st->token_capacity * 2 : 1024;
        px_token *grown = realloc(out->tokens, cap * sizeof(px_token));
        if (grown == NULL) { st->out_of_memory = 1; px_fail(st, "out of memory"); return NULL; }
        out->tokens = grown;
        st->token_capacity = cap;
    }
    px_token *t = &out->tokens[out->token_count++];
    xmlParserInputPtr in = st->ctxt->input;
    t->kind = kind;
    t->tag = tag;
    t->reserved = 0;
    t->line = (uint32_t)(in ? in->line : 0);
    t->column = (uint32_t)(in ? in->col : 0);
    t->text_offset = out->text_length;
    t->text_length = 0;
    t->byte_offset = in ? (uint64_t)(in->consumed + (uint64_t)(in->cur - in->base)) : 0;
    return t;
}

static void px_start(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                     const xmlChar *URI, int nb_namespaces, const xmlChar **namespaces,
                     int nb_attributes, int nb_defaulted, const xmlChar **attributes) {
    (void)URI; (void)nb_namespaces; (void)namespaces; (void)nb_attributes;
    (void)nb_defaulted; (void)attributes;
    px_state *st = ctx;
    uint8_t tag = px_tag_of(localname, prefix);
    px_token *t = px_push_token(st, PX_TOKEN_START, tag);
    if (t == NULL) return;
    if (tag == PX_TAG_OTHER) {
        size_t len = strlen((const char *)localname);
        if (!px_append_text(st, (const char *)localname, len)) return;
        t = &st->out->tokens[st->out->token_count - 1];
        t->text_length = (uint32_t)len;
    }
    if (st->depth == st->stack_capacity) {
        size_t cap = st->stack_capacity ? st->stack_capacity * 2 : 64;
        uint8_t *grown = realloc(st->stack, cap);
        if (grown == NULL) { st->out_of_memory = 1; px_fail(st, "out of memory"); return; }
        st->stack = grown;
        st->stack_capacity = cap;
    }
    st->stack[st->depth++] = tag;
    st->last_is_text = 0;
}

static void px_end(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *URI) {
    (void)URI;
    px_state *st = ctx;
    uint8_t tag = px_tag_of(localname, prefix);
    if (st->depth > 0) st->depth--;
    px_push_token(st, PX_TOKEN_END, tag);
    st->last_is_text = 0;
}

static void px_characters(void *ctx, const xmlChar *ch, int len) {
    px_state *st = ctx;
    if (len <= 0 || st->out->failed) return;
    uint8_t parent = st->depth > 0 ? st->stack[st->depth - 1] : PX_TAG_OTHER;
    if (!px_is_leaf(parent) || st->depth == 0) {
        // Between container elements only whitespace is allowed; keep non-blank text as a
        // token so the builder can report it with its position.
        int blank = 1;
        for (int i = 0; i < len; i++) {
            xmlChar c = ch[i];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') { blank = 0; break; }
        }
        if (blank) return;
    }
    if (st->last_is_text) {
        if (!px_append_text(st, (const char *)ch, (size_t)len)) return;
        px_token *t = &st->out->tokens[st->out->token_count - 1];
        uint64_t total = (uint64_t)t->text_length + (uint64_t)len;
        if (total > UINT32_MAX) { px_fail(st, "text node larger than 4 GiB"); return; }
        t->text_length = (uint32_t)total;
        return;
    }
    px_token *t = px_push_token(st, PX_TOKEN_TEXT, parent);
    if (t == NULL) return;
    size_t index = st->out->token_count - 1;
    if (!px_append_text(st, (const char *)ch, (size_t)len)) return;
    st->out->tokens[index].text_length = (uint32_t)len;
    st->last_is_text = 1;
}

static void px_entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *publicId,
                           const xmlChar *systemId, xmlChar *content) {
    (void)type; (void)publicId; (void)systemId; (void)content;
    px_fail(ctx, "entity declaration '%s' is not allowed in a property list", (const char *)name);
}

static xmlEntityPtr px_get_entity(void *ctx, const xmlChar *name) {
    (void)ctx;
    // Only the five predefined entities exist; anything else is an undefined-entity error.
    return xmlGetPredefinedEntity(name);
}

static void px_structured_error(void *ctx, xmlErrorPtr error) {
    px_state *st = ctx;
    if (error == NULL || error->level < XML_ERR_ERROR || st->out->failed) return;
    st->out->failed = 1;
    st->out->error_line = (uint32_t)(error->line > 0 ? error->line : xmlSAX2GetLineNumber(st->ctxt));
    st->out->error_column = (uint32_t)(error->int2 > 0 ? error->int2 : xmlSAX2GetColumnNumber(st->ctxt));
    const char *msg = error->message ? error->message : "malformed XML";
    snprintf(st->out->error_message, sizeof st->out->error_message, "%s", msg);
    // libxml2 messages end with a newline and some span two lines: make them one line.
    for (char *p = st->out->error_message; *p; p++) if (*p == '\n') *p = ' ';
    size_t n = strlen(st->out->error_message);
    while (n > 0 && (st->out->error_message[n - 1] == '\n' || st->out->error_message[n - 1] == ' '))
        st->out->error_message[--n] = 0;
    xmlStopParser(st->ctxt);
}

/// Most attributes one element may carry. devkit reads one (`<plist version=…>`); libxml2
/// 2.9 checks each new attribute against all earlier ones of its element, so 200k
/// attributes cost 17 s (issue 15 §5). `px_scan` refuses more than this before libxml2
/// sees the piece.
#define PX_MAX_ATTRIBUTES 16

/// Where the attribute scan stands between pieces: a small lexer that finds start tags
/// (skipping comments, CDATA, processing instructions and declarations) and counts the
/// `=` outside quotes in each.
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
} px_scan_state;

struct px_parser {
    px_result result;
    px_state state;
    xmlSAXHandler sax;
    px_scan_state scan;
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
            i = (size_t)(lt - bytes) + 1;
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

static void px_silent(void *ctx, const char *msg, ...) {
    (void)ctx; (void)msg;
}

px_parser *px_parser_create(void) {
    // Some encoding errors bypass the structured handler and go to libxml2's generic one,
    // which prints to stderr; they are reported through serror as well, so mute the printing.
    xmlSetGenericErrorFunc(NULL, px_silent);
    px_parser *p = calloc(1, sizeof *p);
    if (p == NULL) return NULL;
    p->sax.initialized = XML_SAX2_MAGIC;
    p->sax.startElementNs = px_start;
    p->sax.endElementNs = px_end;
    p->sax.characters = px_characters;
    p->sax.cdataBlock = px_characters;
    p->sax.entityDecl = px_entity_decl;
    p->sax.getEntity = px_get_entity;
    p->sax.serror = px_structured_error;
    p->state.out = &p->result;
    xmlParserCtxtPtr ctxt = xmlCreatePushParserCtxt(&p->sax, &p->state, NULL, 0, NULL);
    if (ctxt == NULL) { free(p); return NULL; }
    p->state.ctxt = ctxt;
    // NONET: never fetch anything. No NOENT (no entity substitution beyond the predefined
    // five), no DTDLOAD/DTDATTR/DTDVALID (external DTDs are never read), no HUGE (keep
    // libxml2's limits on the size of a single text node and name).
    xmlCtxtUseOptions(ctxt, XML_PARSE_NONET);
    ctxt->replaceEntities = 0;
    ctxt->loadsubset = 0;
    ctxt->validate = 0;
    return p;
}

int px_parser_feed(px_parser *p, const char *bytes, size_t length, int terminate) {
    px_result *out = &p->result;
    if (out->failed) return -1;
    if (length > (size_t)INT32_MAX) {
        out->failed = 1;
        snprintf(out->error_message, sizeof out->error_message, "input piece larger than 2 GiB");
        return -1;
    }
    if (px_scan(p, (const unsigned char *)bytes, length) != 0) return -1;
    xmlParserCtxtPtr ctxt = p->state.ctxt;
    int rc = xmlParseChunk(ctxt, bytes, (int)length, terminate);
    if (rc != 0 && !out->failed) {
        out->failed = 1;
        out->error_line = (uint32_t)xmlSAX2GetLineNumber(ctxt);
        out->error_column = (uint32_t)xmlSAX2GetColumnNumber(ctxt);
        snprintf(out->error_message, sizeof out->error_message, "malformed XML (libxml2 error %d)", rc);
    }
    if (terminate && !out->failed && !ctxt->wellFormed) {
        out->failed = 1;
        snprintf(out->error_message, sizeof out->error_message, "malformed XML");
    }
    return out->failed ? -1 : 0;
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
    // In SAX mode libxml2 makes a stand-in document (myDoc) to hold entity declarations and
    // does not free it with the context (a leak found by fuzzing).
    if (p->state.ctxt->myDoc != NULL) {
        xmlFreeDoc(p->state.ctxt->myDoc);
        p->state.ctxt->myDoc = NULL;
    }
    xmlFreeParserCtxt(p->state.ctxt);
    free(p->state.stack);
    free(p->result.tokens);
    free(p->result.text);
    free(p);
}
