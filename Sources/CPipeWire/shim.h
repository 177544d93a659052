/* libpipewire-0.3 (Debian's libpipewire-0.3-dev), found through pkg-config: the headers the
 * C shim CCabinPipeWire is compiled against. Swift does not import it (see CCabinPipeWire). */
#include <pipewire/pipewire.h>
#include <spa/param/audio/format-utils.h>
