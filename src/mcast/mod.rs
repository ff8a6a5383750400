//! Multicast trees and MFT colour assignment for limited MFT sizes (MR4LMS).
