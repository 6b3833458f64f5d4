resource "aws_instance" "x" {
  ami = 
  tags = { a = 1
}

variable "y" {
