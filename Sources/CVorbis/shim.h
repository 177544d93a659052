#include <ogg/ogg.h>
#include <vorbis/codec.h>
