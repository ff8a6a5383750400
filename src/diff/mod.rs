//! Compares two sets of forwarding tables (what a re-route will upload).
