#!/bin/sh
# The judge's clock (labs/judge/timed.c) on made-up runs, without a GPU: tests/unit_clock.c.
exec ./output/labs/unit_clock
