"""Model endpoints: the litellm client and what guards it (keys at rest, egress, rate caps, redaction)."""
