"""What an operator and a load balancer ask a worker: /healthz and /metrics."""
