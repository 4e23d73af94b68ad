#!/bin/sh
# The judge's report of a call's outcome (labs/judge/channel.c) from a made-up runner, without a GPU:
# tests/unit_channel.c.
exec ./output/labs/unit_channel
