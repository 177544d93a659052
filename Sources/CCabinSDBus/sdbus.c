#include "CCabinSDBus.h"
#include <stdlib.h>
#include <string.h>

static char *copy(const char *s) { return strdup(s ? s : ""); }

/* "Offset" or "TrackId Position" as sd-bus keeps names: each one followed by a NUL, the
 * list ending in an empty name. */
static char *names_list(const char *spaced) {
    size_t n = spaced ? strlen(spaced) : 0;
    char *out = calloc(n + 2, 1);
    if (!out) return NULL;
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        if (spaced[i] == ' ') { if (j > 0 && out[j - 1] != '\0') out[j++] = '\0'; }
        else out[j++] = spaced[i];
    }
    if (j > 0 && out[j - 1] != '\0') out[j++] = '\0';
    return out;
}

sd_bus_vtable *cabin_bus_vtable_new(const cabin_bus_member *members, size_t count,
                                    sd_bus_property_get_t get, sd_bus_property_set_t set,
                                    sd_bus_message_handler_t call) {
    /* Unused areas of the union must be zero (sd-bus-vtable.h), so the array is calloc'd and
     * each entry's fields are set one by one, as the macros would set them. */
    sd_bus_vtable *v = calloc(count + 2, sizeof(sd_bus_vtable));
    if (!v) return NULL;
    v[0].type = _SD_BUS_VTABLE_START;
    v[0].flags = 0;
    v[0].x.start.element_size = sizeof(sd_bus_vtable);
    v[0].x.start.features = _SD_BUS_VTABLE_PARAM_NAMES;
    v[0].x.start.vtable_format_reference = &sd_bus_object_vtable_format;
    for (size_t i = 0; i < count; i++) {
        const cabin_bus_member *m = &members[i];
        sd_bus_vtable *e = &v[i + 1];
        switch (m->kind) {
        case CABIN_BUS_PROPERTY:
        case CABIN_BUS_WRITABLE_PROPERTY:
            e->type = m->kind == CABIN_BUS_PROPERTY ? _SD_BUS_VTABLE_PROPERTY : _SD_BUS_VTABLE_WRITABLE_PROPERTY;
            e->flags = m->change == CABIN_BUS_CHANGE_SIGNALLED ? SD_BUS_VTABLE_PROPERTY_EMITS_CHANGE
                     : m->change == CABIN_BUS_CHANGE_CONSTANT ? SD_BUS_VTABLE_PROPERTY_CONST : 0;
            e->x.property.member = copy(m->name);
            e->x.property.signature = copy(m->signature);
            e->x.property.get = get;
            e->x.property.set = m->kind == CABIN_BUS_WRITABLE_PROPERTY ? set : NULL;
            e->x.property.offset = 0;
            break;
        case CABIN_BUS_METHOD:
            e->type = _SD_BUS_VTABLE_METHOD;
            e->flags = SD_BUS_VTABLE_UNPRIVILEGED;
            e->x.method.member = copy(m->name);
            e->x.method.signature = copy(m->signature);
            e->x.method.result = copy(m->result);
            e->x.method.handler = call;
            e->x.method.offset = 0;
            e->x.method.names = names_list(m->names);
            break;
        case CABIN_BUS_SIGNAL:
            e->type = _SD_BUS_VTABLE_SIGNAL;
            e->flags = 0;
            e->x.signal.member = copy(m->name);
            e->x.signal.signature = copy(m->signature);
            e->x.signal.names = names_list(m->names);
            break;
        }
    }
    v[count + 1].type = _SD_BUS_VTABLE_END;
    return v;
}

void cabin_bus_vtable_free(sd_bus_vtable *v) {
    if (!v) return;
    for (sd_bus_vtable *e = v + 1; e->type != _SD_BUS_VTABLE_END; e++) {
        switch (e->type) {
        case _SD_BUS_VTABLE_METHOD:
            free((char *)e->x.method.member);
            free((char *)e->x.method.signature);
            free((char *)e->x.method.result);
            free((char *)e->x.method.names);
            break;
        case _SD_BUS_VTABLE_SIGNAL:
            free((char *)e->x.signal.member);
            free((char *)e->x.signal.signature);
            free((char *)e->x.signal.names);
            break;
        case _SD_BUS_VTABLE_PROPERTY:
        case _SD_BUS_VTABLE_WRITABLE_PROPERTY:
            free((char *)e->x.property.member);
            free((char *)e->x.property.signature);
            break;
        }
    }
    free(v);
}
