#!/bin/sh
# Unit tests of common/ (C, TAP output).
exec ./tests/unit_common
