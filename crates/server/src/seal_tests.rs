use super::*;

#[test]
fn sealed_states_open_only_with_their_key_and_context() {
    let sealer = Sealer::from_secret(&"k".repeat(40)).unwrap();
    let token = sealer.seal(b"payload", b"tool:delete_pet").unwrap();
    assert!(!token.contains("payload"), "encrypted, not just signed");
    assert_eq!(sealer.open(&token, b"tool:delete_pet").unwrap(), b"payload");
    // Another call's context, another key, a flipped character: refused.
    assert_eq!(sealer.open(&token, b"tool:get_pet"), Err(SealError::Forged));
    let other = Sealer::from_secret(&"x".repeat(40)).unwrap();
    assert_eq!(
        other.open(&token, b"tool:delete_pet"),
        Err(SealError::Forged)
    );
    let mut bytes = token.into_bytes();
    let last = bytes.len() - 3;
    bytes[last] = if bytes[last] == b'A' { b'B' } else { b'A' };
    let tampered = String::from_utf8(bytes).unwrap();
    assert_eq!(
        sealer.open(&tampered, b"tool:delete_pet"),
        Err(SealError::Forged)
    );
    assert_eq!(sealer.open("not base64 !!", b""), Err(SealError::Forged));
    assert_eq!(sealer.open("", b""), Err(SealError::Forged));
    assert_eq!(
        sealer.open(&"A".repeat(MAX_STATE_CHARS + 1), b""),
        Err(SealError::TooLong)
    );
}

#[test]
fn short_secrets_are_refused_with_the_variable_named() {
    let err = Sealer::from_secret("short").unwrap_err();
    assert!(err.contains(STATE_KEY_ENV), "{err}");
}

#[test]
fn digests_are_hex_sha256() {
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn keys_come_from_the_kernel_and_differ() {
    let (mut a, mut b) = ([0u8; 32], [0u8; 32]);
    os_random(&mut a).unwrap();
    os_random(&mut b).unwrap();
    assert_ne!(a, b);
    assert_ne!(a, [0u8; 32]);
    // Two servers started without a key seal differently.
    let one = Sealer::from_env().unwrap();
    let two = Sealer::from_env().unwrap();
    let sealed = one.seal(b"state", b"ctx").unwrap();
    assert!(two.open(&sealed, b"ctx").is_err());
    assert_eq!(one.open(&sealed, b"ctx").unwrap(), b"state");
}
