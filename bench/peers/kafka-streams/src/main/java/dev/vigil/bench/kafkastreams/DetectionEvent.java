package dev.vigil.bench.kafkastreams;

/**
 * One event of {@code detections.events.v1} in the form Vigil's processor works on: strings
 * trimmed, the email lowercased, a description derived when the record has none.
 */
record DetectionEvent(
    String id,
    String detectionId,
    String detectionName,
    String personEmail,
    String personName,
    String description,
    long happened) {}
