#!/usr/bin/env bash
echo "e2e: 0 passed, 0 failed, 0 skipped"
