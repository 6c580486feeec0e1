/* SPDX-License-Identifier: BSD-2-Clause */
/**
 * @file pin_record.h
 * The record of the maps `run --pin-maps DIR` pinned (userprog.c): pins
 * outlive a SIGKILLed run, and DIR is the user's, so only a record says
 * which entries there are ours. XL_RUN_STATE_DIR/pins.PID.NNNNNN holds, for
 * each map, its kernel id and its pin path ("ID\tPATH", NUL-ended); it is
 * written before the pins are made and removed after they are unpinned.
 * `xdplab cleanup` unpins a dead run's entries whose pin still is that
 * map (the same id): a pin put there since, another program's or the
 * user's, is left alone.
 */
#ifndef XDPLAB_PIN_RECORD_H
#define XDPLAB_PIN_RECORD_H

#include <stddef.h>
#include <sys/types.h>

struct bpf_object;

/**
 * xl_pin_maps_check() - refuse to pin @obj's maps under @dir when a name
 * they would take there (DIR/NAME, dots turned to '_' as libbpf does) is
 * already taken: an existing pin is never reused. One line names the path,
 * and when a map is pinned there with another shape than the program's
 * map, both shapes (type, key and value bytes, entries).
 * Return: 0, -EEXIST, or -ENAMETOOLONG.
 */
int xl_pin_maps_check(struct bpf_object *obj, const char *dir);

/**
 * xl_pin_maps_pin() - pin every map of the loaded @obj under @dir, having
 * first recorded them (their ids and paths, in a new
 * XL_RUN_STATE_DIR/pins.PID.NNNNNN whose path goes to @rec, @len bytes) for
 * xl_pin_record_sweep(). A record that cannot be written is a warning (the
 * pins would then outlive a SIGKILL unrecorded). On failure nothing stays
 * pinned nor recorded; a name taken meanwhile (-EEXIST) is said as by
 * xl_pin_maps_check(). Messages name @dir as --pin-maps DIR.
 * Return: 0 or -errno (with the one-line error).
 */
int xl_pin_maps_pin(struct bpf_object *obj, const char *dir, char *rec, size_t len);

/**
 * xl_pin_maps_unpin() - unpin the maps xl_pin_maps_pin() pinned under @dir
 * and remove its record @rec (@rec becomes "").
 */
void xl_pin_maps_unpin(struct bpf_object *obj, const char *dir, char *rec);

/**
 * xl_pin_record_sweep() - for every record of a process that is gone
 * (xl_pid_records_sweep(), the one sweep of pid-named records): unpin
 * (unlink) each entry whose path still holds the map of the recorded id,
 * then remove the record. A record that is a symbolic link or unreadable
 * is removed without unpinning anything.
 * @unpinned: called with each unpinned path and the dead PID (may be NULL);
 * @kept: with each path left because it holds another object (may be NULL).
 * Return: the number of records removed (0 when XL_RUN_STATE_DIR does not
 * exist), or the -errno of reading XL_RUN_STATE_DIR.
 */
int xl_pin_record_sweep(void (*unpinned)(const char *path, pid_t pid, void *ctx),
			void (*kept)(const char *path, pid_t pid, void *ctx), void *ctx);

#endif
