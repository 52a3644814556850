-- A revert takes a request back to undecided: who approved it, and when, no longer describe it (its history keeps
-- them). Pending requests are undecided; those reverted before carried their old decision.
UPDATE holiday_requests SET decided_by = NULL, decided_at = NULL WHERE status = 'pending' AND decided_by IS NOT NULL;
