package dev.vigil.bench.kafkastreams;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A growable byte array for the store's values: big-endian numbers and strings as their UTF-8
 * length and bytes. String.getBytes is a copy for ASCII text, where DataOutputStream.writeUTF
 * encodes character by character: the summary is written at every event.
 */
final class EncodedBytes {
  private byte[] bytes;
  private int length;

  EncodedBytes(int capacity) {
    bytes = new byte[Math.max(16, capacity)];
  }

  int length() {
    return length;
  }

  void reset() {
    length = 0;
  }

  EncodedBytes writeByte(int value) {
    ensure(1);
    bytes[length++] = (byte) value;
    return this;
  }

  EncodedBytes writeInt(int value) {
    ensure(4);
    for (int shift = 24; shift >= 0; shift -= 8) bytes[length++] = (byte) (value >>> shift);
    return this;
  }

  EncodedBytes writeLong(long value) {
    ensure(8);
    for (int shift = 56; shift >= 0; shift -= 8) bytes[length++] = (byte) (value >>> shift);
    return this;
  }

  EncodedBytes writeString(String value) {
    byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
    writeInt(utf8.length);
    ensure(utf8.length);
    System.arraycopy(utf8, 0, bytes, length, utf8.length);
    length += utf8.length;
    return this;
  }

  EncodedBytes write(EncodedBytes other) {
    ensure(other.length);
    System.arraycopy(other.bytes, 0, bytes, length, other.length);
    length += other.length;
    return this;
  }

  byte[] toByteArray() {
    return Arrays.copyOf(bytes, length);
  }

  private void ensure(int more) {
    if (length + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
    }
  }

  static String readString(ByteBuffer in) {
    int size = in.getInt();
    String value =
        new String(in.array(), in.arrayOffset() + in.position(), size, StandardCharsets.UTF_8);
    in.position(in.position() + size);
    return value;
  }
}
