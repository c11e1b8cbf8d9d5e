"""Tests of the front half of the pipeline (cuda_tile -> tileaa -> gpu)."""
