# A small web stack, to exercise the HCL grammar.
terraform {
  required_version = ">= 1.5.0"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = "~> 5.0"
    }
  }
  backend "s3" {
    bucket = "tf-state-grüße"
    key    = "web/terraform.tfstate"
    region = "eu-central-1"
  }
}

variable "environment" {
  type        = string
  description = "Deployment environment — z. B. „prod“ oder „dev“"
  default     = "dev"

  validation {
    condition     = contains(["dev", "staging", "prod"], var.environment)
    error_message = "Environment must be dev, staging or prod."
  }
}

variable "instance_count" {
  type    = number
  default = 2
}

variable "tags" {
  type = map(string)
  default = {
    owner   = "platform"
    project = "web"
  }
}

locals {
  name_prefix = "${var.environment}-web"
  is_prod     = var.environment == "prod"
  ports       = [80, 443]
  common_tags = merge(var.tags, { environment = var.environment })
  subnets     = { for i, cidr in ["10.0.1.0/24", "10.0.2.0/24"] : "subnet-${i}" => cidr }
}

provider "aws" {
  region = "eu-central-1"
}

data "aws_ami" "ubuntu" {
  most_recent = true
  owners      = ["099720109477"]

  filter {
    name   = "name"
    values = ["ubuntu/images/hvm-ssd/ubuntu-jammy-22.04-amd64-server-*"]
  }
}

resource "aws_security_group" "web" {
  name = "${local.name_prefix}-sg"

  dynamic "ingress" {
    for_each = local.ports
    content {
      from_port   = ingress.value
      to_port     = ingress.value
      protocol    = "tcp"
      cidr_blocks = ["0.0.0.0/0"]
    }
  }

  tags = local.common_tags
}

resource "aws_instance" "web" {
  count                  = local.is_prod ? var.instance_count * 2 : var.instance_count
  ami                    = data.aws_ami.ubuntu.id
  instance_type          = local.is_prod ? "t3.large" : "t3.micro"
  vpc_security_group_ids = [aws_security_group.web.id]

  user_data = <<-EOT
    #!/bin/bash
    echo "Hallo von Instanz ${count.index}" > /var/www/index.html
  EOT

  lifecycle {
    create_before_destroy = true
    ignore_changes        = [tags["LastDeployed"]]
  }

  tags = merge(local.common_tags, {
    Name = format("%s-%02d", local.name_prefix, count.index + 1)
  })
}

output "public_ips" {
  value       = aws_instance.web[*].public_ip
  description = "Public addresses of the web servers"
}

output "first_ip" {
  value     = try(aws_instance.web[0].public_ip, null)
  sensitive = false
}
