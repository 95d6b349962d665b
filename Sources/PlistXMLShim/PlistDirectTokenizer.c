// The direct tokenizer: the tokens of a property list read straight from its bytes, for the
// shape nearly every plist has, at a fraction of expat's cost.
//
// Why by hand: expat is a general XML parser; on a tag-dense plist it spends ~100
// instructions per input byte (an element-type lookup and name copies for every tag, one
// character-data call per line, its encoding tables), more than devkit spends building the
// values. A plist uses a sliver of XML: eleven element names, one attribute, a few
// references. This file reads exactly that sliver, checking every well-formedness rule that
// applies to it (UTF-8 and XML characters, references, nesting, comments, the declaration
// and DOCTYPE), and gives up on anything else — another encoding, CDATA, processing
// instructions, an unknown element, any error — returning PX_DIRECT_UNSUPPORTED, and the
// reader starts over with expat, which then also words the error. So what it accepts it
// must tokenize exactly as the expat path does (tests and a differential fuzzer compare the
// two), and what it is unsure of it never accepts.
#include "ShimInternals.h"

#include <string.h>

enum { PX_STAGE_START = 0, PX_STAGE_PROLOG, PX_STAGE_BODY, PX_STAGE_EPILOG, PX_STAGE_DONE };

#define PX_GIVE_UP PX_DIRECT_UNSUPPORTED

/// Byte classes of character data: what the text scan must stop at.
enum { PX_C_PLAIN = 0, PX_C_LT, PX_C_AMP, PX_C_CR, PX_C_BRACKET, PX_C_INVALID, PX_C_HIGH };

static const uint8_t px_text_class[256] = {
    [0 ... 8] = PX_C_INVALID, ['\t'] = PX_C_PLAIN, ['\n'] = PX_C_PLAIN,
    [0x0B ... 0x0C] = PX_C_INVALID, ['\r'] = PX_C_CR, [0x0E ... 0x1F] = PX_C_INVALID,
    ['<'] = PX_C_LT, ['&'] = PX_C_AMP, [']'] = PX_C_BRACKET,
    [0x80 ... 0xFF] = PX_C_HIGH,
};

static inline int px_space(unsigned char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static inline int px_letter(unsigned char c) {
    return (unsigned char)((c | 0x20) - 'a') < 26;
}

/// The length of the UTF-8 sequence at `p` (lead byte >= 0x80) when it encodes a character
/// XML allows, else 0: no overlong forms, surrogates, U+FFFE/U+FFFF or values past U+10FFFF.
static size_t px_utf8_char(const unsigned char *p, const unsigned char *end) {
    unsigned char c = p[0];
    size_t avail = (size_t)(end - p);
    if (c < 0xC2) return 0;
    if (c < 0xE0) return avail >= 2 && (p[1] & 0xC0) == 0x80 ? 2 : 0;
    if (c < 0xF0) {
        if (avail < 3 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80) return 0;
        if (c == 0xE0 && p[1] < 0xA0) return 0;
        if (c == 0xED && p[1] >= 0xA0) return 0;
        if (c == 0xEF && p[1] == 0xBF && p[2] >= 0xBE) return 0;
        return 3;
    }
    if (c < 0xF5) {
        if (avail < 4 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80 || (p[3] & 0xC0) != 0x80) return 0;
        if (c == 0xF0 && p[1] < 0x90) return 0;
        if (c == 0xF4 && p[1] >= 0x90) return 0;
        return 4;
    }
    return 0;
}

/// The length of the character at `p` when XML allows it (a tab, newline, carriage return,
/// anything from U+0020 on), else 0.
static inline size_t px_xml_char(const unsigned char *p, const unsigned char *end) {
    unsigned char c = *p;
    if (c >= 0x80) return px_utf8_char(p, end);
    return c >= 0x20 || c == '\t' || c == '\n' || c == '\r' ? 1 : 0;
}

/// Whether `code` is a character XML allows (the Char production).
static int px_allowed_code(uint32_t code) {
    if (code < 0x20) return code == '\t' || code == '\n' || code == '\r';
    if (code >= 0xD800 && code <= 0xDFFF) return 0;
    if (code == 0xFFFE || code == 0xFFFF) return 0;
    return code <= 0x10FFFF;
}

static size_t px_encode_utf8(uint32_t code, char out[4]) {
    if (code < 0x80) { out[0] = (char)code; return 1; }
    if (code < 0x800) {
        out[0] = (char)(0xC0 | (code >> 6)); out[1] = (char)(0x80 | (code & 0x3F));
        return 2;
    }
    if (code < 0x10000) {
        out[0] = (char)(0xE0 | (code >> 12)); out[1] = (char)(0x80 | ((code >> 6) & 0x3F));
        out[2] = (char)(0x80 | (code & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (code >> 18)); out[1] = (char)(0x80 | ((code >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((code >> 6) & 0x3F)); out[3] = (char)(0x80 | (code & 0x3F));
    return 4;
}

/// A reference at `b[i]` (`&`): the predefined entities and character references. Returns
/// the bytes it spans and writes what it stands for, or 0 for anything else.
static size_t px_reference(const unsigned char *b, size_t length, size_t i, char out[4], size_t *produced) {
    size_t avail = length - i;
    static const struct { const char *spelling; size_t length; char value; } named[] = {
        { "&lt;", 4, '<' }, { "&gt;", 4, '>' }, { "&amp;", 5, '&' }, { "&quot;", 6, '"' }, { "&apos;", 6, '\'' },
    };
    for (size_t k = 0; k < sizeof named / sizeof named[0]; k++) {
        if (avail >= named[k].length && memcmp(b + i, named[k].spelling, named[k].length) == 0) {
            out[0] = named[k].value;
            *produced = 1;
            return named[k].length;
        }
    }
    if (avail < 4 || b[i + 1] != '#') return 0;
    size_t j = i + 2;
    uint32_t code = 0;
    size_t digits = 0;
    if (b[j] == 'x') {
        for (j++; j < length && b[j] != ';'; j++, digits++) {
            unsigned char c = b[j];
            unsigned value;
            if (c >= '0' && c <= '9') value = c - '0';
            else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') value = (c | 0x20) - 'a' + 10;
            else return 0;
            code = code * 16 + value;
            if (code > 0x10FFFF) return 0;
        }
    } else {
        for (; j < length && b[j] != ';'; j++, digits++) {
            unsigned char c = b[j];
            if (c < '0' || c > '9') return 0;
            code = code * 10 + (c - '0');
            if (code > 0x10FFFF) return 0;
        }
    }
    if (j >= length || digits == 0 || !px_allowed_code(code)) return 0;
    *produced = px_encode_utf8(code, out);
    return j + 1 - i;
}

/// Appends text to the open text token, or opens one at `offset`.
static int px_emit_text(px_state *st, uint8_t parent, uint64_t offset, const char *bytes, size_t len) {
    if (len == 0) return 0;
    px_result *out = st->out;
    if (!st->last_is_text) {
        if (px_push_token(st, PX_TOKEN_TEXT, parent, offset) == NULL) return -1;
        st->last_is_text = 1;
    }
    px_token *t = &out->tokens[out->token_count - 1];
    if ((uint64_t)t->text_length + len > UINT32_MAX) return PX_GIVE_UP;  // expat words it
    if (!px_append_text(st, bytes, len)) return -1;
    t = &out->tokens[out->token_count - 1];
    t->text_length += (uint32_t)len;
    return 0;
}

/// Character data from `*at` to the next `<` inside an element whose content is text:
/// references decoded, line ends normalised (CR LF and CR to LF) as expat does.
static int px_leaf_text(px_state *st, uint8_t parent, const unsigned char *b, size_t length, size_t *at) {
    size_t i = *at, run = i;
    const unsigned char *end = b + length;
    for (;;) {
        while (i < length && px_text_class[b[i]] == PX_C_PLAIN) i++;
        if (i == length) break;
        uint8_t k = px_text_class[b[i]];
        if (k == PX_C_HIGH) {
            size_t n = px_utf8_char(b + i, end);
            if (n == 0) return PX_GIVE_UP;
            i += n;
            continue;
        }
        if (k == PX_C_BRACKET) {
            if (length - i >= 3 && b[i + 1] == ']' && b[i + 2] == '>') return PX_GIVE_UP;
            i++;
            continue;
        }
        if (k == PX_C_INVALID) return PX_GIVE_UP;
        int status = px_emit_text(st, parent, run, (const char *)b + run, i - run);
        if (status != 0) return status;
        if (k == PX_C_LT) break;
        char decoded[4];
        size_t produced = 1, span;
        if (k == PX_C_CR) {
            decoded[0] = '\n';
            span = i + 1 < length && b[i + 1] == '\n' ? 2 : 1;
        } else {
            span = px_reference(b, length, i, decoded, &produced);
            if (span == 0) return PX_GIVE_UP;
        }
        if ((status = px_emit_text(st, parent, i, decoded, produced)) != 0) return status;
        i += span;
        run = i;
    }
    if (i == length) {
        int status = px_emit_text(st, parent, run, (const char *)b + run, i - run);
        if (status != 0) return status;
    }
    *at = i;
    return 0;
}

/// `<!--…-->` at `i`; the offset after it, or 0.
static size_t px_comment(const unsigned char *b, size_t length, size_t i) {
    if (length - i < 4 || memcmp(b + i, "<!--", 4) != 0) return 0;
    for (size_t j = i + 4; j < length;) {
        if (b[j] == '-' && j + 1 < length && b[j + 1] == '-') {
            return j + 2 < length && b[j + 2] == '>' ? j + 3 : 0;
        }
        size_t n = px_xml_char(b + j, b + length);
        if (n == 0) return 0;
        j += n;
    }
    return 0;
}

static size_t px_skip_space(const unsigned char *b, size_t length, size_t i) {
    while (i < length && px_space(b[i])) i++;
    return i;
}

/// A quoted literal at `i` whose characters `allowed` accepts (NULL: any XML character);
/// the offset after its closing quote, or 0.
static size_t px_literal(const unsigned char *b, size_t length, size_t i, int (*allowed)(unsigned char)) {
    if (i >= length || (b[i] != '"' && b[i] != '\'')) return 0;
    unsigned char quote = b[i];
    for (size_t j = i + 1; j < length;) {
        if (b[j] == quote) return j + 1;
        if (allowed && !allowed(b[j])) return 0;
        size_t n = px_xml_char(b + j, b + length);
        if (n == 0) return 0;
        j += n;
    }
    return 0;
}

/// PubidChar, less the apostrophe (a public identifier in apostrophes cannot hold one, one
/// in quotes practically never does).
static int px_public_id_char(unsigned char c) {
    if (px_letter(c) || (c >= '0' && c <= '9')) return 1;
    return c != 0 && strchr(" \r\n-()+,./:=?;!*#@$_%", c) != NULL;
}

/// An attribute value: no `<`, and no references (the one attribute a plist has never
/// needs one; the rare value that does goes to expat).
static int px_attribute_char(unsigned char c) {
    return c != '<' && c != '&';
}

/// `<?xml version="1.0" [encoding="UTF-8"] [standalone="yes|no"]?>` at `i`; the offset after
/// it, or 0 for any other declaration.
static size_t px_declaration(const unsigned char *b, size_t length, size_t i) {
    if (length - i < 6 || memcmp(b + i, "<?xml", 5) != 0 || !px_space(b[i + 5])) return 0;
    size_t j = i + 5;
    static const char *const names[] = { "version", "encoding", "standalone" };
    int next = 0;  // the pseudo-attributes come in this order, version first
    for (;;) {
        size_t spaced = px_skip_space(b, length, j);
        if (length - spaced >= 2 && b[spaced] == '?' && b[spaced + 1] == '>') return next > 0 ? spaced + 2 : 0;
        if (spaced == j) return 0;
        j = spaced;
        int found = -1;
        for (int k = next; k < 3; k++) {
            size_t n = strlen(names[k]);
            if (length - j > n && memcmp(b + j, names[k], n) == 0 && !px_letter(b[j + n])) { found = k; j += n; break; }
        }
        if (found < 0 || (next == 0 && found != 0)) return 0;
        j = px_skip_space(b, length, j);
        if (j >= length || b[j] != '=') return 0;
        j = px_skip_space(b, length, j + 1);
        size_t after = px_literal(b, length, j, NULL);
        if (after == 0) return 0;
        const unsigned char *value = b + j + 1;
        size_t value_length = after - j - 2;
        if (found == 0 && !(value_length == 3 && memcmp(value, "1.0", 3) == 0)) return 0;
        if (found == 1) {
            static const char utf8[] = "utf-8";
            if (value_length != 5) return 0;
            for (size_t k = 0; k < 5; k++) if ((value[k] | (value[k] >= 'A' && value[k] <= 'Z' ? 0x20 : 0)) != (unsigned char)utf8[k]) return 0;
        }
        if (found == 2 && !((value_length == 3 && memcmp(value, "yes", 3) == 0) || (value_length == 2 && memcmp(value, "no", 2) == 0))) return 0;
        j = after;
        next = found + 1;
    }
}

/// `<!DOCTYPE name [PUBLIC "…" "…" | SYSTEM "…"]>` without an internal subset; the offset
/// after it, or 0.
static size_t px_doctype(const unsigned char *b, size_t length, size_t i) {
    if (length - i < 10 || memcmp(b + i, "<!DOCTYPE", 9) != 0 || !px_space(b[i + 9])) return 0;
    size_t j = px_skip_space(b, length, i + 9);
    size_t name = j;
    while (j < length && (px_letter(b[j]) || (j > name && ((b[j] >= '0' && b[j] <= '9') || b[j] == '-' || b[j] == '.')))) j++;
    if (j == name || j >= length) return 0;
    size_t spaced = px_skip_space(b, length, j);
    if (spaced < length && b[spaced] != '>') {
        if (spaced == j) return 0;
        j = spaced;
        if (length - j > 6 && memcmp(b + j, "PUBLIC", 6) == 0 && px_space(b[j + 6])) {
            j = px_literal(b, length, px_skip_space(b, length, j + 6), px_public_id_char);
            if (j == 0 || j >= length || !px_space(b[j])) return 0;
        } else if (length - j > 6 && memcmp(b + j, "SYSTEM", 6) == 0 && px_space(b[j + 6])) {
            j += 6;
        } else {
            return 0;
        }
        j = px_literal(b, length, px_skip_space(b, length, j), NULL);
        if (j == 0) return 0;
        spaced = px_skip_space(b, length, j);
    }
    return spaced < length && b[spaced] == '>' ? spaced + 1 : 0;
}

/// A start tag at `*at` (its `<`): tokens pushed, the element opened unless empty. Returns 0,
/// -1 (out of memory) or PX_GIVE_UP.
static int px_start_tag(px_state *st, px_direct_state *ds, const unsigned char *b, size_t length, size_t *at) {
    size_t i = *at, j = i + 1;
    while (j < length && px_letter(b[j])) j++;
    if (j >= length || !(px_space(b[j]) || b[j] == '>' || b[j] == '/')) return PX_GIVE_UP;
    uint8_t tag = px_tag_named((const char *)b + i + 1, j - i - 1);
    if (tag == PX_TAG_OTHER) return PX_GIVE_UP;
    int attributes = 0, empty;
    for (;;) {
        size_t spaced = px_skip_space(b, length, j);
        if (spaced >= length) return PX_GIVE_UP;
        if (b[spaced] == '>') { j = spaced; empty = 0; break; }
        if (b[spaced] == '/') {
            if (spaced + 1 < length && b[spaced + 1] == '>') { j = spaced; empty = 1; break; }
            return PX_GIVE_UP;
        }
        // One attribute, after white space: two would need a duplicate check.
        if (spaced == j || ++attributes > 1) return PX_GIVE_UP;
        j = spaced;
        size_t name = j;
        while (j < length && px_letter(b[j])) j++;
        if (j == name) return PX_GIVE_UP;
        j = px_skip_space(b, length, j);
        if (j >= length || b[j] != '=') return PX_GIVE_UP;
        j = px_literal(b, length, px_skip_space(b, length, j + 1), px_attribute_char);
        if (j == 0) return PX_GIVE_UP;
    }
    if (ds->stage == PX_STAGE_EPILOG) return PX_GIVE_UP;  // a second root
    ds->stage = PX_STAGE_BODY;
    if (px_push_token(st, PX_TOKEN_START, tag, j) == NULL) return -1;
    st->last_is_text = 0;
    if (empty) {
        if (px_push_token(st, PX_TOKEN_END, tag, j + 2) == NULL) return -1;
        if (st->depth == 0) ds->stage = PX_STAGE_EPILOG;
        *at = j + 2;
    } else {
        if (!px_push_open(st, tag)) return -1;
        *at = j + 1;
    }
    return 0;
}

/// An end tag at `*at` (its `<`), which must close the open element.
static int px_end_tag(px_state *st, px_direct_state *ds, const unsigned char *b, size_t length, size_t *at) {
    size_t i = *at, j = i + 2;
    while (j < length && px_letter(b[j])) j++;
    uint8_t tag = px_tag_named((const char *)b + i + 2, j - i - 2);
    j = px_skip_space(b, length, j);
    if (j >= length || b[j] != '>' || st->depth == 0 || tag == PX_TAG_OTHER || st->stack[st->depth - 1] != tag) return PX_GIVE_UP;
    if (px_push_token(st, PX_TOKEN_END, tag, j + 1) == NULL) return -1;
    st->depth--;
    st->last_is_text = 0;
    if (st->depth == 0) ds->stage = PX_STAGE_EPILOG;
    *at = j + 1;
    return 0;
}

int px_direct_run(px_state *st, px_direct_state *ds, const unsigned char *b, size_t length, size_t token_limit) {
    px_result *out = st->out;
    size_t i = ds->position;
    // Tokens the caller kept (an unfinished leaf) do not count: each call makes progress.
    size_t produced_before = out->token_count;
    size_t text_before = out->text_length;
    if (token_limit == 0) token_limit = 1;
    if (ds->stage == PX_STAGE_DONE) return 1;
    if (ds->stage == PX_STAGE_START) {
        if (length >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF) i = 3;
        if (length - i >= 5 && memcmp(b + i, "<?xml", 5) == 0) {
            i = px_declaration(b, length, i);
            if (i == 0) return PX_GIVE_UP;
        }
        ds->stage = PX_STAGE_PROLOG;
    }
    int status = 0;
    while (status == 0) {
        if (ds->stage != PX_STAGE_BODY) {
            // Before and after the root element: white space, comments, one DOCTYPE before.
            i = px_skip_space(b, length, i);
            if (i >= length) {
                if (ds->stage != PX_STAGE_EPILOG) return PX_GIVE_UP;
                ds->stage = PX_STAGE_DONE;
                ds->position = length;
                return 1;
            }
            if (b[i] != '<' || length - i < 2) return PX_GIVE_UP;
            size_t after = 0;
            if (b[i + 1] == '!') {
                after = px_comment(b, length, i);
                if (after == 0 && ds->stage == PX_STAGE_PROLOG && !ds->saw_doctype) {
                    after = px_doctype(b, length, i);
                    ds->saw_doctype = after != 0;
                }
                if (after == 0) return PX_GIVE_UP;
                i = after;
                continue;
            }
            if (b[i + 1] == '?' || b[i + 1] == '/' || ds->stage == PX_STAGE_EPILOG) return PX_GIVE_UP;
            status = px_start_tag(st, ds, b, length, &i);
            continue;
        }
        // A batch ends after `token_limit` tokens or a MiB of text, whichever comes first:
        // text-heavy documents (data, long strings) would otherwise hold all their text here.
        if (out->token_count - produced_before >= token_limit || out->text_length - text_before >= PX_DIRECT_TEXT_BATCH) break;
        if (i >= length) return PX_GIVE_UP;  // the input ends inside the root element
        if (b[i] != '<') {
            uint8_t parent = st->stack[st->depth - 1];
            if (px_is_leaf(parent)) {
                status = px_leaf_text(st, parent, b, length, &i);
            } else {
                // Between elements of a container: white space only (anything else is the
                // reader's error, whose position comes from expat's chunks of text).
                i = px_skip_space(b, length, i);
                if (i < length && b[i] != '<') return PX_GIVE_UP;
            }
            continue;
        }
        if (length - i < 2) return PX_GIVE_UP;
        switch (b[i + 1]) {
        case '/':
            status = px_end_tag(st, ds, b, length, &i);
            break;
        case '!': {
            size_t after = px_comment(b, length, i);
            if (after == 0) return PX_GIVE_UP;  // CDATA, or a malformed comment
            i = after;
            break;
        }
        case '?':
            return PX_GIVE_UP;
        default:
            status = px_start_tag(st, ds, b, length, &i);
            break;
        }
    }
    ds->position = i;
    return status;
}
