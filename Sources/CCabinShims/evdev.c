#include "CCabinShims.h"
#include <linux/input.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int cabin_evdev_get_bits(int fd, unsigned int type, void *bits, unsigned int len) {
    return ioctl(fd, EVIOCGBIT(type, len), bits);
}

int cabin_evdev_get_name(int fd, char *name, unsigned int len) {
    return ioctl(fd, EVIOCGNAME(len), name);
}

int cabin_evdev_get_effects(int fd, int *count) {
    return ioctl(fd, EVIOCGEFFECTS, count);
}

int cabin_evdev_upload_rumble(int fd, short *id, unsigned short strong_magnitude,
                              unsigned short weak_magnitude, unsigned short length_ms,
                              unsigned short delay_ms) {
    struct ff_effect effect;
    memset(&effect, 0, sizeof effect);
    effect.type = FF_RUMBLE;
    effect.id = *id;
    effect.u.rumble.strong_magnitude = strong_magnitude;
    effect.u.rumble.weak_magnitude = weak_magnitude;
    effect.replay.length = length_ms;
    effect.replay.delay = delay_ms;
    int result = ioctl(fd, EVIOCSFF, &effect);
    if (result >= 0) *id = effect.id;
    return result;
}

int cabin_evdev_remove_effect(int fd, int id) {
    return ioctl(fd, EVIOCRMFF, id);
}

long cabin_evdev_write_event(int fd, unsigned short type, unsigned short code, int value) {
    struct input_event event;
    memset(&event, 0, sizeof event);
    event.type = type;
    event.code = code;
    event.value = value;
    return (long)write(fd, &event, sizeof event);
}

unsigned int cabin_evdev_input_event_size(void) {
    return (unsigned int)sizeof(struct input_event);
}
