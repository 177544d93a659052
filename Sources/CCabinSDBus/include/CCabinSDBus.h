#ifndef CCABINSDBUS_H
#define CCABINSDBUS_H
/* sd-bus (libsystemd) for Cabin's D-Bus objects (MPRIS). Swift calls sd-bus's plain
 * functions directly; what it cannot write is the object's vtable, an array of tagged unions
 * built with C macros (SD_BUS_PROPERTY, SD_BUS_METHOD, …). This builds one at run time from
 * a list of members, every entry pointing at the same three callbacks, which dispatch by
 * name (the property's name is an argument; a method's is sd_bus_message_get_member). */
#include <stddef.h>
#include <systemd/sd-bus.h>

typedef enum {
    CABIN_BUS_PROPERTY = 0,           /* read-only property */
    CABIN_BUS_WRITABLE_PROPERTY = 1,  /* read/write property */
    CABIN_BUS_METHOD = 2,
    CABIN_BUS_SIGNAL = 3,
} cabin_bus_member_kind;

typedef enum {
    CABIN_BUS_CHANGE_NONE = 0,      /* no PropertiesChanged (EmitsChangedSignal=false: Position) */
    CABIN_BUS_CHANGE_SIGNALLED = 1, /* PropertiesChanged carries the new value */
    CABIN_BUS_CHANGE_CONSTANT = 2,  /* never changes (EmitsChangedSignal=const) */
} cabin_bus_change;

typedef struct {
    cabin_bus_member_kind kind;
    const char *name;
    /* A property's type; a method's or signal's arguments ("" for none). */
    const char *signature;
    /* A method's results ("" for none); unused otherwise. */
    const char *result;
    /* The arguments' names for introspection, space-separated (a method's arguments, then its
     * results), or NULL. */
    const char *names;
    cabin_bus_change change;
} cabin_bus_member;

/* A vtable for sd_bus_add_object_vtable with `count` members (strings copied), or NULL when
 * out of memory. Free it with cabin_bus_vtable_free after the object's slot is unreffed. */
sd_bus_vtable *cabin_bus_vtable_new(const cabin_bus_member *members, size_t count,
                                    sd_bus_property_get_t get, sd_bus_property_set_t set,
                                    sd_bus_message_handler_t call);
void cabin_bus_vtable_free(sd_bus_vtable *vtable);

#endif
